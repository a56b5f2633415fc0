import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { SqlDatabase } from '../sql/types.js';

/** The channel on which every replica announces the commits it makes. */
export const COMMIT_CHANNEL = 'specbase_commits';
const RECONNECT_MS = 500;

export interface CommitNotice {
  readonly orgId: string;
  readonly commit: string;
}

/**
 * Commit announcements between replicas through PostgreSQL LISTEN/NOTIFY: a replica that
 * commits publishes, every other replica hears it within milliseconds and catches up from
 * `main`, whatever its file system caches. Notices are hints, not data: a notice lost while
 * the listening connection was down is made good by `resync`, called after every reconnect.
 */
export interface CommitChannel {
  publish(notice: CommitNotice): Promise<void>;
  /** False while the listening connection is down and notices may be missed. */
  listening(): boolean;
  close(): Promise<void>;
}

export interface CommitChannelOptions {
  readonly databaseUrl: string;
  /**
   * Where notices are published: the control plane's pool, so that a replica holds its pool
   * and one listening connection, no more.
   */
  readonly publishOn: Pick<SqlDatabase, 'run'>;
  /** Called for every commit announced by another replica. */
  readonly onNotice: (notice: CommitNotice) => void;
  /** Called once listening again after the connection was lost: notices may have been missed. */
  readonly resync: () => void;
  readonly onError?: (error: Error) => void;
}

const isNotice = (value: unknown): value is CommitNotice & { origin: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).orgId === 'string' &&
  typeof (value as Record<string, unknown>).commit === 'string' &&
  typeof (value as Record<string, unknown>).origin === 'string';

export async function commitChannel(options: CommitChannelOptions): Promise<CommitChannel> {
  const origin = randomUUID();
  let listener: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const heard = (message: pg.Notification) => {
    if (message.channel !== COMMIT_CHANNEL || !message.payload) return;
    let notice: unknown;
    try {
      notice = JSON.parse(message.payload);
    } catch {
      return;
    }
    if (isNotice(notice) && notice.origin !== origin) options.onNotice({ orgId: notice.orgId, commit: notice.commit });
  };

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    client.on('notification', heard);
    client.on('error', (error) => {
      options.onError?.(error);
      void client.end().catch(() => undefined);
      if (listener === client) listener = undefined;
      reconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${COMMIT_CHANNEL}`);
    listener = client;
  };

  const reconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      listen().then(options.resync, (error: Error) => {
        options.onError?.(error);
        reconnect();
      });
    }, RECONNECT_MS);
    retry.unref();
  };

  await listen();

  return {
    async publish(notice) {
      const payload = JSON.stringify({ orgId: notice.orgId, commit: notice.commit, origin });
      await options.publishOn.run('SELECT pg_notify(?, ?)', [COMMIT_CHANNEL, payload]);
    },
    listening: () => listener !== undefined,
    async close() {
      closed = true;
      clearTimeout(retry);
      await listener?.end().catch(() => undefined);
    },
  };
}
