import path from 'node:path';
import { z } from 'zod';
import { WEBHOOK_ENV, webhookSettings, type WebhookSettings } from './webhooks.js';

const optionalText = z.string().trim().min(1).optional();
/** A count where 0 switches the limit off. */
const limit = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
/** A timeout in seconds; fractions allowed, so that tests can wait less than a second. */
const seconds = (fallback: number) => z.coerce.number().min(0.1).max(3600).default(fallback);

/**
 * Organizations a process holds open by default. Each open one holds five file descriptors and
 * about 1 MB with tens of artifacts, 12 MB with 1,000 (README, "Sizing a replica"): 500 of a
 * few hundred artifacts on average fit a 2 GB process beside its base of about 200 MB.
 */
const DEFAULT_MAX_OPEN_ORGS = 500;

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  SPECBASE_DATA_DIR: z.string().default('./data'),
  SPECBASE_CACHE_DIR: optionalText,
  SPECBASE_BASE_URL: z.url().optional(),
  SPECBASE_OIDC_ISSUER: z.url().optional(),
  SPECBASE_OIDC_CLIENT_ID: optionalText,
  SPECBASE_OIDC_CLIENT_SECRET: optionalText,
  SPECBASE_TLS_CERT: optionalText,
  SPECBASE_TLS_KEY: optionalText,
  SPECBASE_DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SPECBASE_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  SPECBASE_FSYNC: z.enum(['on', 'off']).default('on'),
  SPECBASE_MAX_SESSIONS_PER_USER: limit(100),
  SPECBASE_MAX_SSE_STREAMS_PER_USER: limit(50),
  SPECBASE_TOOL_CALLS_PER_MINUTE: limit(600),
  SPECBASE_SIGNIN_FAILURES_PER_ACCOUNT: limit(10),
  SPECBASE_SIGNIN_FAILURES_PER_ADDRESS: limit(100),
  SPECBASE_SIGNIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  SPECBASE_ACCESS_TOKEN_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  SPECBASE_REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  SPECBASE_DEMO: z.enum(['auto', 'on', 'off']).default('auto'),
  SPECBASE_IMG_HOSTS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const entry of value
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)) {
        const origin = httpsOrigin(entry);
        if (origin) origins.push(origin);
        else
          ctx.addIssue({
            code: 'custom',
            message: `${JSON.stringify(entry)} is not an https origin such as https://images.example.com`,
          });
      }
      return Object.freeze(origins);
    }),
  SPECBASE_HEADERS_TIMEOUT_SECONDS: seconds(20),
  SPECBASE_REQUEST_TIMEOUT_SECONDS: seconds(60),
  SPECBASE_KEEPALIVE_TIMEOUT_SECONDS: seconds(5),
  SPECBASE_MAX_CONNECTIONS_PER_ADDRESS: limit(128),
  SPECBASE_AUDIT_HELD_ROWS: z.coerce.number().int().min(0).default(10_000),
  SPECBASE_MAX_OPEN_ORGS: limit(DEFAULT_MAX_OPEN_ORGS),
  SPECBASE_ORG_IDLE_SECONDS: z.coerce.number().min(0).default(900),
  SPECBASE_DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  SPECBASE_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
  SPECBASE_CIMD_CA_FILE: optionalText,
  ...WEBHOOK_ENV,
  SPECBASE_CIMD_ALLOW_LOOPBACK_HOST: optionalText,
  SPECBASE_PUSH_MAX_PACK_MB: z.coerce.number().min(1).max(10_240).default(100),
  SPECBASE_PUSH_MAX_OBJECTS: z.coerce.number().int().min(1).default(200_000),
  SPECBASE_PUSH_TIMEOUT_SECONDS: seconds(300),
});

/** `https://host[:port]` exactly (no path, query, user or wildcard), as its origin; undefined otherwise. */
function httpsOrigin(entry: string): string | undefined {
  if (!/^https:\/\/[^/?#@*\s]+\/?$/i.test(entry)) return undefined;
  try {
    const url = new URL(entry);
    return url.protocol === 'https:' && url.hostname ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export interface Config {
  readonly port: number;
  /** Address to bind; loopback by default so that a fresh demo is not reachable from the network. */
  readonly host: string;
  readonly dataDir: string;
  /**
   * This process's caches of each organization (saved catalog, search index), rebuilt from Git
   * when missing: `<dataDir>/cache` unless set. Replicas sharing `dataDir` each need their own.
   */
  readonly cacheDir: string;
  /** Public base URL without trailing slash; every URL the service prints or returns starts with it. */
  readonly baseUrl: string;
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
  /** External OpenID Connect issuer; the embedded provider is used when absent. */
  readonly oidc?: { readonly issuer: string; readonly clientId: string; readonly clientSecret?: string };
  /** PostgreSQL control plane shared by replicas; the SQLite file in the data directory when absent. */
  readonly databaseUrl?: string;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Acknowledge a commit only once its objects and `main` are flushed to disk. */
  readonly fsync: boolean;
  readonly limits: Limits;
  /** Fetching Client ID Metadata Documents: extra trusted CA, and one loopback host for tests. */
  readonly clientDocuments: { readonly caFile?: string; readonly allowLoopbackHost?: string };
  /** Lifetimes of the OAuth tokens given to MCP clients. */
  readonly oauthTokens: { readonly accessSeconds: number; readonly refreshSeconds: number };
  readonly userLimits: UserLimits;
  /**
   * Whether `npm start` creates the demo organization and account: `auto` only on a fresh
   * local sandbox (no organization yet, a loopback base URL), `on` whenever it is missing, `off` never.
   */
  readonly demo: 'auto' | 'on' | 'off';
  /** Origins (https) rendered documents may show images from, besides our own; none by default. */
  readonly imgHosts: readonly string[];
  readonly connections: ConnectionLimits;
  /**
   * Audit rows kept in memory while the control database refuses writes (a full or read-only
   * disk), to be written once it takes them again; past this many the oldest are dropped and
   * counted (/healthz `droppedAuditRows`).
   */
  readonly auditHeldRows: number;
  /** How many organizations this process holds open, and for how long one nobody uses. */
  readonly openOrgs: OpenOrgLimits;
  /** PostgreSQL connections this process opens for queries, at most (besides one that listens for commits). */
  readonly databasePoolSize: number;
  /** Audit rows older than this many days are deleted (checked at start and every few hours). */
  readonly auditRetentionDays: number;
  /** Delivering webhooks: trust, retries, the development setting and the bounds (config/webhooks.ts). */
  readonly webhooks: WebhookSettings;
  readonly push: PushLimits;
}

/**
 * What one `git push` may bring. The defaults take a whole organization's history (10,000
 * artifacts' worth of commits is tens of megabytes) and stop a runaway or hostile one.
 */
export interface PushLimits {
  /** The pack git receives, in bytes (git's own `receive.maxInputSize`). */
  readonly maxPackBytes: number;
  /** Objects in that pack, read from its header before git unpacks anything. */
  readonly maxObjects: number;
  /** For the pack to arrive and be unpacked (a slow or stalled pusher is stopped). */
  readonly timeoutMs: number;
}

/**
 * An organization open holds its catalog in memory, its saved state's SQLite connections (file
 * descriptors) and its search index; a closed one reopens from its saved state on next use.
 */
export interface OpenOrgLimits {
  /** Past this many, the least recently used organization nobody is using is closed; 0: no limit. */
  readonly max: number;
  /** An organization nobody used for this long is closed; 0: never. */
  readonly idleMs: number;
}

/**
 * How long a client may take to send a request, and how many connections one address may hold
 * before any request on them proved who sent it. Streams already answering (MCP, SSE, a clone)
 * are not cut: the request timeouts end once a request is wholly received.
 */
export interface ConnectionLimits {
  /** Until a request's headers are complete (also a connection that sends nothing). */
  readonly headersTimeoutMs: number;
  /** Until a request's headers and body are complete. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections per client address not yet authenticated; 0 switches the cap off. */
  readonly maxPerAddress: number;
}

/** What one user may hold or do; every count can be 0, which switches that limit off. */
export interface UserLimits {
  /** Open Streamable HTTP sessions per user, over all organizations. */
  readonly maxSessionsPerUser: number;
  /** Open legacy SSE streams (each is a session) per user, over all organizations. */
  readonly maxSseStreamsPerUser: number;
  /** Tool calls per user and organization: this many at once, refilled at this many per minute. */
  readonly toolCallsPerMinute: number;
  /** Failed sign-ins per account, refilled to full over `signinWindowSeconds`. */
  readonly signinFailuresPerAccount: number;
  /** Failed sign-ins per client address, refilled to full over `signinWindowSeconds`. */
  readonly signinFailuresPerAddress: number;
  readonly signinWindowSeconds: number;
}

export interface Limits {
  /** Largest patch an edit tool accepts. */
  readonly maxPatchBytes: number;
  /** Largest markdown document the store keeps. */
  readonly maxDocumentBytes: number;
  /** Largest title. */
  readonly maxTitleChars: number;
  /** Most markdown one import takes in (an upload, or the files of a zip archive when inflated). */
  readonly maxImportBytes: number;
  /** Most markdown files one import takes. */
  readonly maxImportFiles: number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxPatchBytes: 256 * 1024,
  maxDocumentBytes: 1024 * 1024,
  maxTitleChars: 200,
  maxImportBytes: 64 * 1024 * 1024,
  maxImportFiles: 10_000,
});

/** The defaults: generous enough that one person with several assistants in parallel never meets them. */
export const DEFAULT_USER_LIMITS: UserLimits = Object.freeze(userLimitsOf(EnvSchema.parse({})));

function userLimitsOf(e: z.infer<typeof EnvSchema>): UserLimits {
  return Object.freeze({
    maxSessionsPerUser: e.SPECBASE_MAX_SESSIONS_PER_USER,
    maxSseStreamsPerUser: e.SPECBASE_MAX_SSE_STREAMS_PER_USER,
    toolCallsPerMinute: e.SPECBASE_TOOL_CALLS_PER_MINUTE,
    signinFailuresPerAccount: e.SPECBASE_SIGNIN_FAILURES_PER_ACCOUNT,
    signinFailuresPerAddress: e.SPECBASE_SIGNIN_FAILURES_PER_ADDRESS,
    signinWindowSeconds: e.SPECBASE_SIGNIN_WINDOW_SECONDS,
  });
}

export { isLoopbackUrl } from './loopback.js';
export type { WebhookSettings } from './webhooks.js';

export class ConfigError extends Error {}

/** Parse the environment once at start-up into a frozen Config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  if (Boolean(e.SPECBASE_TLS_CERT) !== Boolean(e.SPECBASE_TLS_KEY)) {
    throw new ConfigError('SPECBASE_TLS_CERT and SPECBASE_TLS_KEY must be set together');
  }
  if (e.SPECBASE_HEADERS_TIMEOUT_SECONDS > e.SPECBASE_REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError('SPECBASE_HEADERS_TIMEOUT_SECONDS may not exceed SPECBASE_REQUEST_TIMEOUT_SECONDS');
  }
  if (e.SPECBASE_OIDC_ISSUER && !e.SPECBASE_OIDC_CLIENT_ID) {
    throw new ConfigError('SPECBASE_OIDC_ISSUER needs SPECBASE_OIDC_CLIENT_ID');
  }
  const scheme = e.SPECBASE_TLS_CERT ? 'https' : 'http';
  const baseUrl = (e.SPECBASE_BASE_URL ?? `${scheme}://localhost:${e.PORT}`).replace(/\/+$/, '');
  const webhooks = webhookSettings(e, baseUrl);
  if (typeof webhooks === 'string') throw new ConfigError(webhooks);
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.SPECBASE_DATA_DIR),
    cacheDir: path.resolve(e.SPECBASE_CACHE_DIR ?? path.join(e.SPECBASE_DATA_DIR, 'cache')),
    baseUrl,
    ...(e.SPECBASE_TLS_CERT && e.SPECBASE_TLS_KEY
      ? { tls: Object.freeze({ certFile: e.SPECBASE_TLS_CERT, keyFile: e.SPECBASE_TLS_KEY }) }
      : {}),
    ...(e.SPECBASE_OIDC_ISSUER && e.SPECBASE_OIDC_CLIENT_ID
      ? {
          oidc: Object.freeze({
            issuer: e.SPECBASE_OIDC_ISSUER,
            clientId: e.SPECBASE_OIDC_CLIENT_ID,
            ...(e.SPECBASE_OIDC_CLIENT_SECRET ? { clientSecret: e.SPECBASE_OIDC_CLIENT_SECRET } : {}),
          }),
        }
      : {}),
    ...(e.SPECBASE_DATABASE_URL ? { databaseUrl: e.SPECBASE_DATABASE_URL } : {}),
    logLevel: e.SPECBASE_LOG_LEVEL,
    fsync: e.SPECBASE_FSYNC === 'on',
    limits: DEFAULT_LIMITS,
    userLimits: userLimitsOf(e),
    demo: e.SPECBASE_DEMO,
    imgHosts: e.SPECBASE_IMG_HOSTS,
    auditHeldRows: e.SPECBASE_AUDIT_HELD_ROWS,
    openOrgs: Object.freeze({ max: e.SPECBASE_MAX_OPEN_ORGS, idleMs: Math.round(e.SPECBASE_ORG_IDLE_SECONDS * 1000) }),
    databasePoolSize: e.SPECBASE_DATABASE_POOL_SIZE,
    auditRetentionDays: e.SPECBASE_AUDIT_RETENTION_DAYS,
    webhooks,
    push: Object.freeze({
      maxPackBytes: Math.round(e.SPECBASE_PUSH_MAX_PACK_MB * 1024 * 1024),
      maxObjects: e.SPECBASE_PUSH_MAX_OBJECTS,
      timeoutMs: Math.round(e.SPECBASE_PUSH_TIMEOUT_SECONDS * 1000),
    }),
    connections: Object.freeze({
      headersTimeoutMs: Math.round(e.SPECBASE_HEADERS_TIMEOUT_SECONDS * 1000),
      requestTimeoutMs: Math.round(e.SPECBASE_REQUEST_TIMEOUT_SECONDS * 1000),
      keepAliveTimeoutMs: Math.round(e.SPECBASE_KEEPALIVE_TIMEOUT_SECONDS * 1000),
      maxPerAddress: e.SPECBASE_MAX_CONNECTIONS_PER_ADDRESS,
    }),
    clientDocuments: Object.freeze({
      ...(e.SPECBASE_CIMD_CA_FILE ? { caFile: e.SPECBASE_CIMD_CA_FILE } : {}),
      ...(e.SPECBASE_CIMD_ALLOW_LOOPBACK_HOST ? { allowLoopbackHost: e.SPECBASE_CIMD_ALLOW_LOOPBACK_HOST } : {}),
    }),
    oauthTokens: Object.freeze({
      accessSeconds: e.SPECBASE_ACCESS_TOKEN_MINUTES * 60,
      refreshSeconds: e.SPECBASE_REFRESH_TOKEN_DAYS * 86_400,
    }),
  });
}
