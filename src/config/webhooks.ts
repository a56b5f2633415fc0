import { z } from 'zod';
import { isLoopbackUrl } from './loopback.js';

const optionalText = z.string().trim().min(1).optional();
const atLeast = (min: number, fallback: number) => z.coerce.number().int().min(min).default(fallback);

/** The environment variables of webhook delivery, part of the one schema in index.ts. */
export const WEBHOOK_ENV = {
  SPECBASE_WEBHOOK_CA_FILE: optionalText,
  SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST: optionalText,
  SPECBASE_WEBHOOK_RETRY_SECONDS: z.coerce.number().positive().default(30),
  SPECBASE_WEBHOOK_ALLOW_LOCALHOST: z.enum(['on', 'off']).default('off'),
  SPECBASE_WEBHOOK_MAX_ENDPOINTS: atLeast(1, 50),
  SPECBASE_WEBHOOK_ENDPOINT_CONCURRENCY: atLeast(1, 1),
  SPECBASE_WEBHOOK_MAX_QUEUED: atLeast(1, 10_000),
  SPECBASE_WEBHOOK_CONCURRENCY: atLeast(2, 64),
};

type WebhookEnv = z.infer<z.ZodObject<typeof WEBHOOK_ENV>>;

export interface WebhookSettings {
  /** Extra trusted CA (PEM file), for a private CA or tests. */
  readonly caFile?: string;
  /** One `host:port` whose loopback addresses may be reached over https: for tests. */
  readonly allowLoopbackHost?: string;
  /** The first retry's delay, doubled after each failed attempt. */
  readonly firstRetryMs: number;
  /**
   * The development setting: http and https receivers on `localhost`, 127.0.0.1 or ::1, any
   * port. Off by default; refused unless the base URL is loopback too (a local sandbox).
   */
  readonly allowLocalhost: boolean;
  /** Endpoints one organization may add. */
  readonly maxEndpoints: number;
  /** Deliveries to one endpoint at once, over all replicas; 1 keeps its events in commit order. */
  readonly maxInFlightPerEndpoint: number;
  /** Pending messages kept per endpoint; past it the oldest are dropped and counted. */
  readonly maxQueuedPerEndpoint: number;
  /** Deliveries this process makes at once; one organization takes at most half, the last quarter is for organizations holding none. */
  readonly maxInFlight: number;
}

/** The settings, or why they are refused. */
export function webhookSettings(e: WebhookEnv, baseUrl: string): WebhookSettings | string {
  const allowLocalhost = e.SPECBASE_WEBHOOK_ALLOW_LOCALHOST === 'on';
  if (allowLocalhost && !isLoopbackUrl(baseUrl))
    return `SPECBASE_WEBHOOK_ALLOW_LOCALHOST is for a local sandbox: the base URL ${baseUrl} is not loopback`;
  return Object.freeze({
    ...(e.SPECBASE_WEBHOOK_CA_FILE ? { caFile: e.SPECBASE_WEBHOOK_CA_FILE } : {}),
    ...(e.SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST ? { allowLoopbackHost: e.SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST } : {}),
    firstRetryMs: Math.round(e.SPECBASE_WEBHOOK_RETRY_SECONDS * 1000),
    allowLocalhost,
    maxEndpoints: e.SPECBASE_WEBHOOK_MAX_ENDPOINTS,
    maxInFlightPerEndpoint: e.SPECBASE_WEBHOOK_ENDPOINT_CONCURRENCY,
    maxQueuedPerEndpoint: e.SPECBASE_WEBHOOK_MAX_QUEUED,
    maxInFlight: e.SPECBASE_WEBHOOK_CONCURRENCY,
  });
}
