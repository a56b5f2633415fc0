/** What a pushed ref name may update; change requests (`cr/{id}`) will be one more kind. */
export type PushTarget = { readonly kind: 'main' } | { readonly kind: 'refused'; readonly reason: string };

const MAIN = 'refs/heads/main';

/** The one place that decides, ref by ref, what a push may update. */
export function pushTargetOf(ref: string): PushTarget {
  if (ref === MAIN) return { kind: 'main' };
  return {
    kind: 'refused',
    reason: `${ref} cannot be pushed: Specbase accepts pushes to main only (change-request branches cr/{id} will be added)`,
  };
}
