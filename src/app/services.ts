import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/index.js';
import { openControlPlane, type AuditEvent, type SqlControlPlane } from '../control/index.js';
import {
  createChangeRequestServices,
  createSpecService,
  type ChangeRequestServices,
  type SpecService,
} from '../domain/index.js';
import { createLogger, type Logger } from '../log.js';
import { SearchIndexes } from '../search/index.js';
import { blameFile, FSYNC, GitStore, NO_FSYNC } from '../store/index.js';
import type { ArtifactRecord } from '../store/types.js';
import { keepAuditRetention } from './audit-retention.js';
import { replicate, type Replication } from './replication.js';
import { storageProblem } from './storage-probe.js';
import { webhookService, type WebhookService } from './webhooks.js';

/** Everything below the transports, opened once per process and shared by MCP, web, Git and CLI. */
export interface Services {
  readonly config: Config;
  readonly control: SqlControlPlane;
  readonly store: GitStore;
  readonly search: SearchIndexes;
  readonly specs: SpecService;
  /** Change requests, the proposals of assistants' connections, and each branch's SpecService. */
  readonly changeRequests: ChangeRequestServices;
  readonly webhooks: WebhookService;
  /** Undefined when serving traffic is safe; otherwise why not (database unreachable, commits unheard). */
  unready(): Promise<string | undefined>;
  close(): Promise<void>;
}

const indexed = (record: ArtifactRecord) => ({
  id: record.id,
  type: record.type,
  workspaceId: record.workspaceId,
  title: record.title,
  body: record.body,
  updatedAt: record.updatedAt,
});

/** The audit log's reports (see AuditBatches): one line when rows start failing, one when that ends. */
function logAudit(log: Logger, event: AuditEvent): void {
  if (event.kind === 'failing') {
    log.error(
      { err: event.error, heldRows: event.held },
      'audit rows cannot be written: holding them in memory and trying again',
    );
  } else if (event.dropped > 0) {
    log.error(
      { droppedRows: event.dropped, seconds: event.seconds },
      event.kind === 'recovered'
        ? `audit rows are written again; ${event.dropped} were dropped meanwhile`
        : `closing with the audit log unwritable: ${event.dropped} audit rows were dropped`,
    );
  } else {
    log.warn({ seconds: event.seconds }, 'audit rows are written again; none was lost');
  }
}

export interface ServiceOptions {
  /** Where background failures (announcing a commit, following another replica) are reported. */
  readonly onError?: (error: Error) => void;
  /** The service's log; one at the configured level on stderr when absent. */
  readonly log?: Logger;
  /** Whether this process delivers the webhook outbox in the background (the server does; the CLI does not). */
  readonly deliverWebhooks?: boolean;
}

export async function openServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  // Owner only even where the process's umask is wider (embedded, tests); main.ts also sets it.
  await mkdir(path.join(config.dataDir, 'orgs'), { recursive: true, mode: 0o700 });
  const log = options.log ?? createLogger(config.logLevel);
  const control = await openControlPlane({
    ...(config.databaseUrl
      ? { databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize }
      : { file: path.join(config.dataDir, 'specbase.db') }),
    audit: { heldRows: config.auditHeldRows, report: (event) => logAudit(log, event) },
  });
  const store = new GitStore({
    dataDir: config.dataDir,
    cacheDir: config.cacheDir,
    maxDocumentBytes: config.limits.maxDocumentBytes,
    durability: config.fsync ? FSYNC : NO_FSYNC,
    log: (level, message, data) => log[level](data ?? {}, message),
    maxOpenOrgs: config.openOrgs.max,
    orgIdleMs: config.openOrgs.idleMs,
  });
  const documents = async (orgId: string, ids?: readonly string[]) => (await store.readMany(orgId, ids)).map(indexed);
  // A first build takes the documents as the store reads them (from its own catalog build on a cold start).
  const search = new SearchIndexes((orgId, take) => store.documents(orgId, (records) => take(records.map(indexed))), {
    thread: 'worker',
    // An index is held as long as its organization is open in the store (it is the larger part
    // of an open organization's memory): a search uses the organization, and its close drops it.
    onUse: (orgId) => store.touch(orgId),
    saved: {
      dir: (orgId) => path.join(store.cacheDir(orgId), 'search'),
      async since(orgId, version) {
        // main still at the saved version: nothing changed, and nothing waits for the catalog.
        if ((await store.mainCommit(orgId)) === version) return { docs: [], version };
        // Taken first, so it never claims more than the documents hold (later commits are replayed).
        const last = await store.lastChange(orgId);
        const changed = await store.changedSince(orgId, version);
        if (!changed) return undefined;
        const ids = (await store.catalog(orgId)).map((meta) => meta.id);
        return { docs: await documents(orgId, changed), ids, version: last };
      },
    },
  });
  // The index learns of a commit in the same step that makes it, so a search right after an edit sees it.
  const unsubscribeCommits = store.onCommit((orgId, result) =>
    result.deleted
      ? search.remove(orgId, result.artifact.id, result.commit)
      : search.upsert(orgId, indexed(result.artifact), result.commit),
  );
  const unsubscribeCloses = store.onOrganizationClosed((orgId) => search.drop(orgId));
  const unsubscribe = () => {
    unsubscribeCommits();
    unsubscribeCloses();
  };
  const blame = {
    blame: (orgId: string, filePath: string, commit: string) => blameFile(store.gitdir(orgId), commit, filePath),
  };
  const webhooks = webhookService(control.webhooks, config, log, options.deliverWebhooks ?? true);
  const ports = {
    store,
    search,
    blame,
    control,
    baseUrl: config.baseUrl,
    limits: config.limits,
    changes: webhooks,
    changeRequestEvents: webhooks,
    branches: store,
    pushes: store,
  };
  const specs = createSpecService(ports);
  const changeRequests = createChangeRequestServices(ports, specs)!;
  let replication: Replication | undefined;
  if (config.databaseUrl) {
    try {
      replication = await replicate({
        databaseUrl: config.databaseUrl,
        db: control.db,
        store,
        onError: options.onError ?? (() => undefined),
      });
    } catch (error) {
      unsubscribe();
      await webhooks.close();
      await control.close();
      throw error;
    }
  }
  const stopPruning = keepAuditRetention(control, config.auditRetentionDays, log);
  return {
    config,
    control,
    store,
    search,
    specs,
    changeRequests,
    webhooks,
    async unready() {
      try {
        await control.db.ping();
      } catch (error) {
        return `database unreachable: ${(error as Error).message}`;
      }
      if (replication && !replication.listening()) return 'not listening for commits of other replicas';
      return (await control.writeProblem()) ?? storageProblem(path.join(config.dataDir, 'orgs'));
    },
    async close() {
      await stopPruning();
      await replication?.close();
      unsubscribe();
      await search.close();
      await webhooks.close();
      await store.close();
      await control.close();
    },
  };
}
