/** Time source of the control plane; tests pass their own to move past expiry dates. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
