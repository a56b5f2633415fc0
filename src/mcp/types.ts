import type { AuthenticatedUser } from '../auth/index.js';
import type { Config } from '../config/index.js';
import type { ControlPlane } from '../control/types.js';
import type { ChangeRequestServices } from '../domain/index.js';
import type { SpecService } from '../domain/types.js';
import type { Logger } from '../log.js';
import type { AnyToolDef, AppRendering, Connection } from '../tools/index.js';
import type { ResourceUpdatesDeps } from './resource-updates.js';

export type { AuthenticatedUser };

export type VerifyAccessToken = (token: string, resource: URL) => Promise<AuthenticatedUser | undefined>;

export interface McpRouterDeps {
  readonly specs: SpecService;
  /** Change requests: review tools and proposal connections (X-Specbase-Change-Request). */
  readonly changeRequests?: ChangeRequestServices;
  readonly control: ControlPlane;
  readonly config: Config;
  /** OAuth access tokens and personal access tokens alike; undefined for anything not valid now. */
  readonly verifyAccessToken: VerifyAccessToken;
  readonly log?: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
  /** Sessions without a request for this long are closed (default 30 minutes). */
  readonly sessionIdleMs?: number;
  /** A call still running after this long closes its stream; the client resumes it (default 25 s). */
  readonly pollAfterMs?: number;
  /** How long a call's answer may wait to leave in one write (default ANSWER_GATHER_MS, see one-write.ts). */
  readonly answerGatherMs?: number;
  /** The tool table (default: Specbase's 31 tools); tests add a fixture of the conformance suite. */
  readonly tools?: readonly AnyToolDef[];
  /** How the MCP Apps show documents and diffs (the web application's renderers); no apps without it. */
  readonly render?: AppRendering;
  /** Every commit this process makes or notices (resource subscriptions); none when absent. */
  readonly commits?: ResourceUpdatesDeps['commits'];
  /** Looks at an organization's `main` for commits of other processes (resource subscriptions). */
  readonly follow?: ResourceUpdatesDeps['follow'];
  /** Bytes of resumable events kept per user over all sessions (default DEFAULT_EVENT_BYTES_PER_USER). */
  readonly eventBytesPerUser?: number;
  /**
   * Keeps an organization open in the store while a stream serves it (the legacy SSE stream)
   * until the returned function is called; nothing when absent.
   */
  readonly holdOrganization?: (orgId: string) => () => void;
}

/** What the composition of the app lets a caller tune (tests): the stream poll, the gathering of answers, the tool table, the event budget. */
export type McpTuning = Pick<McpRouterDeps, 'pollAfterMs' | 'answerGatherMs' | 'tools' | 'eventBytesPerUser'>;

/** Who a request is from and for which organization, resolved before MCP sees it. */
export interface RequestScope {
  readonly user: AuthenticatedUser;
  readonly orgId: string;
  /** What the connection may use (read-only, a subset of the tools). */
  readonly connection: Connection;
}
