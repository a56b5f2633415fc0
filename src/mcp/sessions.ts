import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { PermissionDeniedError } from '../errors.js';
import type { RequestScope } from './types.js';

export interface McpSession<T extends Transport> {
  readonly id: string;
  readonly userId: string;
  readonly orgId: string;
  readonly transport: T;
  /** Closes the MCP server and with it the transport; removal follows from the close. */
  close(): Promise<void>;
  lastActiveAt: number;
}

/**
 * Live sessions of one transport kind, each bound to the (user, organization) that opened it.
 * Sessions idle for longer than `idleMs` are closed by a sweep that never keeps the process up.
 */
export class SessionRegistry<T extends Transport> {
  private readonly sessions = new Map<string, McpSession<T>>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly idleMs: number,
    private readonly onCloseError: (error: unknown) => void,
  ) {
    this.timer = setInterval(() => this.sweep(Date.now()), Math.max(1_000, Math.min(idleMs / 2, 60_000)));
    this.timer.unref();
  }

  get size(): number {
    return this.sessions.size;
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
    session.lastActiveAt = Date.now();
    return session;
  }

  sweep(now: number): void {
    for (const session of this.sessions.values()) {
      if (now - session.lastActiveAt >= this.idleMs) this.closeSession(session);
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
