/** Webhooks in the control plane: endpoints, the outbox, attempts, queues and figures (WebhookStore). */

/** The changes a webhook can be told of: one per kind of commit. */
export const WEBHOOK_EVENT_KINDS = ['create', 'edit', 'delete', 'restore', 'move', 'revert', 'change_request'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];
/** What a commit does to an artifact; `change_request` covers a change request's own events. */
export type ArtifactEventKind = Exclude<WebhookEventKind, 'change_request'>;

/** What happened to a change request, as webhooks announce it (`change_request.<kind>`). */
export interface ChangeRequestEvent {
  readonly orgId: string;
  readonly kind: 'opened' | 'updated' | 'merged' | 'closed';
  readonly changeRequest: {
    readonly number: number;
    readonly title: string;
    readonly state: string;
    readonly branch: string;
    readonly url: string;
  };
  /** The workspaces of the artifacts it changes: an endpoint hears of it when it covers any of them. */
  readonly workspaceIds: readonly string[];
  readonly actor: { readonly name: string; readonly email: string };
  readonly client: string | null;
  readonly at: string;
}

/** One commit to one artifact, as webhooks announce it. */
export interface ArtifactChange {
  readonly orgId: string;
  readonly kind: ArtifactEventKind;
  readonly artifact: {
    readonly id: string;
    readonly type: string;
    readonly title: string;
    readonly url: string;
    readonly workspaceId: string;
  };
  readonly commit: string;
  readonly author: { readonly name: string; readonly email: string };
  /** The MCP client's name, 'web' or 'cli'. */
  readonly client: string | null;
  readonly at: string;
}

/** The workspaces an endpoint hears of: a list of ids, or every one the organization has or will have. */
export type WebhookWorkspaces = readonly string[] | 'all';

export interface WebhookEndpoint {
  readonly id: string;
  readonly orgId: string;
  readonly url: string;
  readonly events: readonly WebhookEventKind[];
  /** Only changes in these workspaces are sent; `all`: every workspace, those made later too. */
  readonly workspaceIds: WebhookWorkspaces;
  readonly createdBy: string | null;
  readonly createdAt: string;
  /** Since when every attempt failed; null after a success. */
  readonly failingSince: string | null;
  readonly disabledAt: string | null;
  readonly disabledReason: string | null;
  /** Events dropped, oldest first, because its outbox was full (SPECBASE_WEBHOOK_MAX_QUEUED), and when the last was. */
  readonly dropped: number;
  readonly droppedAt: string | null;
}

/** One endpoint with messages due now or being delivered: what the dispatcher schedules. */
export interface WebhookQueue {
  readonly orgId: string;
  readonly endpointId: string;
  /** Due and free to lease. */
  readonly due: number;
  /** Leased by any replica, lease not run out. */
  readonly inFlight: number;
}

/** How an endpoint is doing, over the attempts still logged (see prune). */
export interface WebhookMetrics {
  readonly endpointId: string;
  readonly delivered: number;
  readonly failed: number;
  /** Over the latest attempts (at most METRICS_WINDOW); null before any. */
  readonly p50Ms: number | null;
  readonly p95Ms: number | null;
  /** Messages waiting: due, retrying later, or in flight. */
  readonly queued: number;
  readonly inFlight: number;
  readonly dropped: number;
  /** The latest failed attempt's error, as the admin sees it (never how a name resolved). */
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
}

/** One event for one endpoint, kept until delivered or given up. `id` is the `webhook-id`. */
export interface OutboxMessage {
  readonly id: string;
  readonly endpointId: string;
  readonly orgId: string;
  readonly kind: string;
  /** The JSON body, exactly as signed and sent. */
  readonly payload: string;
  readonly createdAt: string;
  /** Attempts made before this one. */
  readonly attempts: number;
}

export interface DeliveryAttempt {
  readonly id: number;
  readonly messageId: string;
  readonly endpointId: string;
  readonly kind: string;
  readonly at: string;
  readonly ok: boolean;
  /** The endpoint's HTTP status; null when it never answered. */
  readonly responseCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** What became of the message: delivered, retrying at `nextAttemptAt`, or given up. */
  readonly state: 'delivered' | 'retrying' | 'given_up';
  readonly nextAttemptAt: string | null;
}

/** How an attempt ended, to be settled on the message and its endpoint. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly responseCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/**
 * Webhook endpoints, the outbox of events for them and the log of delivery attempts. Events
 * are written in the step that records the commit; any replica's dispatcher claims them with a
 * lease, so one delivers each.
 */
export interface WebhookStore {
  add(input: {
    orgId: string;
    url: string;
    events: readonly string[];
    workspaceIds: WebhookWorkspaces;
    createdBy: string | null;
    /** Refused past this many endpoints in the organization. */
    maxEndpoints?: number;
    /** http is refused unless this is set (the development setting, loopback hosts only: see webhooks/add-endpoint.ts). */
    allowHttp?: boolean;
  }): Promise<{ endpoint: WebhookEndpoint; secret: string }>;
  list(orgId: string): Promise<WebhookEndpoint[]>;
  get(orgId: string, endpointId: string): Promise<WebhookEndpoint | undefined>;
  remove(orgId: string, endpointId: string): Promise<boolean>;
  /** Enables an endpoint disabled after a day of failures; its pending events are tried again. */
  enable(orgId: string, endpointId: string): Promise<boolean>;
  /**
   * Writes one message per enabled endpoint of the organization that asked for this kind in
   * this workspace; returns how many. An endpoint left with more than `maxQueued` pending
   * messages loses its oldest ones not in flight, counted on the endpoint (`dropped`).
   */
  enqueue(change: ArtifactChange, bounds?: { maxQueued: number }): Promise<number>;
  /** As enqueue, for a change request's event: endpoints that asked for `change_request` and cover any workspace it changes. */
  enqueueChangeRequest(event: ChangeRequestEvent, bounds?: { maxQueued: number }): Promise<number>;
  /** A `webhook.test` message for one endpoint, due now. */
  enqueueTest(orgId: string, endpointId: string): Promise<OutboxMessage>;
  /**
   * Leases up to `limit` due messages of enabled endpoints to `owner` until `leaseUntil`
   * (or just `messageId`): none is leased to two owners at once.
   */
  claim(input: {
    owner: string;
    leaseUntil: Date;
    limit: number;
    messageId?: string;
    /** Only this endpoint's messages, oldest first, and only while fewer than `maxInFlight` of them are leased by anyone. */
    endpoint?: { id: string; maxInFlight: number };
  }): Promise<OutboxMessage[]>;
  /** Endpoints with due or leased messages, for the dispatcher to share out. */
  queues(): Promise<WebhookQueue[]>;
  /** Each endpoint of the organization's figures. */
  metrics(orgId: string): Promise<WebhookMetrics[]>;
  /** Over all organizations, for /healthz: messages pending, and events dropped since the endpoints were added. */
  health(): Promise<{ queued: number; dropped: number }>;
  /** The URL and signing secret of an endpoint, for the dispatcher only. */
  target(endpointId: string): Promise<{ url: string; secret: string } | undefined>;
  /**
   * Logs an attempt on a message leased to `owner`, and settles it: delivered, due again after
   * `retryAfterMs`, or given up once `giveUpAfterMs` passed since it was written. An endpoint
   * failing for `disableAfterMs` is disabled with the reason. Returns the attempt as logged.
   */
  settle(input: {
    message: OutboxMessage;
    owner: string;
    outcome: AttemptOutcome;
    retryAfterMs: number;
    giveUpAfterMs: number;
    disableAfterMs: number;
  }): Promise<DeliveryAttempt>;
  /** The latest attempts for an endpoint, newest first. */
  attempts(orgId: string, endpointId: string, limit: number): Promise<DeliveryAttempt[]>;
  /** Deletes messages delivered or given up before `before`, with their attempts; returns how many. */
  prune(before: Date): Promise<number>;
}
