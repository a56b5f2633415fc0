import type { ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LimitExceededError, PermissionDeniedError } from '../errors.js';
import { sendHttpError } from './http-error.js';
import type { RequestScope } from './types.js';

/** What a session is doing: tool calls under way, and when it was last used. */
export interface SessionActivity {
  busy: number;
  lastActiveAt: number;
}

export const newActivity = (): SessionActivity => ({ busy: 0, lastActiveAt: Date.now() });

/** Runs a tool call of the session: it is busy (never replaced, never swept) until the call ends. */
export async function busyWhile<T>(activity: SessionActivity, work: () => Promise<T>): Promise<T> {
  activity.busy++;
  try {
    return await work();
  } finally {
    activity.busy--;
    activity.lastActiveAt = Date.now();
  }
}

export interface McpSession<T extends Transport> {
  readonly id: string;
  readonly userId: string;
  readonly orgId: string;
  readonly transport: T;
  /** Closes the MCP server and with it the transport; removal follows from the close. */
  close(): Promise<void>;
  readonly activity: SessionActivity;
}

export interface SessionLimit {
  /** Most open sessions of this kind per user; 0 for no limit. */
  readonly maxPerUser: number;
  /** How the refusal names them and what to do about it, e.g. "MCP sessions" / "end one with DELETE". */
  readonly what: string;
  readonly howToFree: string;
}

/**
 * Live sessions of one transport kind, each bound to the (user, organization) that opened it.
 * Sessions idle for longer than `idleMs` are closed by a sweep that never keeps the process up.
 * A user holds at most `limit.maxPerUser` of them: a new one replaces that user's least recently
 * used idle session, and is refused when every one of them has a tool call under way.
 */
export class SessionRegistry<T extends Transport> {
  private readonly sessions = new Map<string, McpSession<T>>();
  /** Sessions admitted but not yet added (a Streamable HTTP initialize under way), per user. */
  private readonly pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly idleMs: number,
    private readonly onCloseError: (error: unknown) => void,
    private readonly limit: SessionLimit = { maxPerUser: 0, what: 'sessions', howToFree: '' },
  ) {
    this.timer = setInterval(() => this.sweep(Date.now()), Math.max(1_000, Math.min(idleMs / 2, 60_000)));
    this.timer.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Makes room for one more session of `userId` (closing their least recently used idle one
   * when at the limit), or throws LimitExceededError. Until the returned function is called the
   * admitted session counts as open, so that concurrent initializes cannot overshoot the limit;
   * call it once the session was added, or failed to start.
   */
  admit(userId: string): () => void {
    const max = this.limit.maxPerUser;
    if (max > 0) {
      const own = [...this.sessions.values()].filter((session) => session.userId === userId);
      if (own.length + (this.pending.get(userId) ?? 0) >= max) {
        const idle = own
          .filter((session) => session.activity.busy === 0)
          .sort((a, b) => a.activity.lastActiveAt - b.activity.lastActiveAt)[0];
        if (!idle) {
          throw new LimitExceededError(
            `you have ${max} open ${this.limit.what}, the most one user may have, and every one has a tool call under way; ${this.limit.howToFree}, or wait for a call to finish, then try again`,
          );
        }
        void this.closeSession(idle);
      }
    }
    this.pending.set(userId, (this.pending.get(userId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.pending.get(userId) ?? 1) - 1;
      if (left > 0) this.pending.set(userId, left);
      else this.pending.delete(userId);
    };
  }

  add(session: McpSession<T>): void {
    this.sessions.set(session.id, session);
  }

  remove(id: string): void {
    this.sessions.delete(id);
  }

  /**
   * The session for a request of `scope`, marked active; undefined when there is none.
   * Someone else's session is refused: a session id is not a credential.
   */
  claim(id: string, scope: RequestScope): McpSession<T> | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.userId !== scope.user.userId || session.orgId !== scope.orgId) {
      throw new PermissionDeniedError('this MCP session belongs to another user or organization; start a new session');
    }
    session.activity.lastActiveAt = Date.now();
    return session;
  }

  /**
   * A request for session `id` is under way until `done`: the session counts as busy, so it is
   * neither replaced nor swept meanwhile. Unknown ids and other users' sessions are left to
   * `claim`, which answers them.
   */
  hold(id: unknown, scope: RequestScope, done: Promise<void>): void {
    const session = typeof id === 'string' ? this.sessions.get(id) : undefined;
    if (!session || session.userId !== scope.user.userId || session.orgId !== scope.orgId) return;
    void busyWhile(session.activity, () => done);
  }

  sweep(now: number): void {
    for (const session of this.sessions.values()) {
      if (session.activity.busy === 0 && now - session.activity.lastActiveAt >= this.idleMs)
        void this.closeSession(session);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.sessions.values()].map((session) => this.closeSession(session)));
  }

  private closeSession(session: McpSession<T>): Promise<void> {
    this.sessions.delete(session.id);
    return session.close().catch(this.onCloseError);
  }
}

/**
 * Admits a new session or stream of the request's user; when the user is at the cap, answers 429
 * (with what to do) and returns undefined. Otherwise returns the reservation's release.
 */
export function admitOrRefuse(
  sessions: Pick<SessionRegistry<Transport>, 'admit'>,
  userId: string,
  res: ServerResponse,
): (() => void) | undefined {
  try {
    return sessions.admit(userId);
  } catch (error) {
    if (!(error instanceof LimitExceededError)) throw error;
    sendHttpError(res, error);
    return undefined;
  }
}
