import type { EventEmitter } from 'node:events';

/** Emitted on a connection's socket once a request on it has proved who sent it. */
export const AUTHENTICATED_CONNECTION = 'specbase:authenticated';

/**
 * Says that the connection carrying `req` is a known user's: it no longer counts against the
 * cap on connections per address that nobody has authenticated (see app/connection-cap.ts).
 */
export function markAuthenticated(req: { readonly socket: EventEmitter }): void {
  req.socket.emit(AUTHENTICATED_CONNECTION);
}
