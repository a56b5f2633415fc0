import pg from 'pg';
import type { DialectMigrations, SqlDatabase, SqlQueries, SqlValue } from '../sql/types.js';
import { applyPostgresMigrations } from './migrations.js';

/**
 * Connections per process (SPECBASE_DATABASE_POOL_SIZE): requests wait for one rather than
 * swamp the server, which serves every replica (plus each one's listening connection).
 */
export const DEFAULT_POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 5_000;
/** A serializable transaction that lost a race is run again, up to this many times. */
const MAX_ATTEMPTS = 8;
const RETRYABLE = new Set(['40001', '40P01']);

const INT8_OID = 20;
/** Counters and epoch seconds are BIGINT; every value we store fits a JavaScript number. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The statements are written with `?`; PostgreSQL numbers its parameters. */
export function numberedParameters(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function queriesOn(client: pg.Pool | pg.PoolClient): SqlQueries {
  const query = (sql: string, params: readonly SqlValue[]) => client.query(numberedParameters(sql), [...params]);
  return {
    async all<T>(sql: string, params: readonly SqlValue[] = []) {
      return (await query(sql, params)).rows as T[];
    },
    async get<T>(sql: string, params: readonly SqlValue[] = []) {
      return (await query(sql, params)).rows[0] as T | undefined;
    },
    async run(sql: string, params: readonly SqlValue[] = []) {
      return (await query(sql, params)).rowCount ?? 0;
    },
  };
}

const isRetryable = (error: unknown) => RETRYABLE.has((error as { code?: string }).code ?? '');

/** The scaled-out backend: a connection pool to a PostgreSQL server shared by every replica. */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  readonly #direct: SqlQueries;

  constructor(readonly pool: pg.Pool) {
    this.#direct = queriesOn(pool);
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.#direct.all<T>(sql, params);
  }

  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.#direct.get<T>(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.#direct.run(sql, params);
  }

  async transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      for (let attempt = 1; ; attempt++) {
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        try {
          const result = await work(queriesOn(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK');
          if (!isRetryable(error) || attempt >= MAX_ATTEMPTS) throw error;
        }
      }
    } finally {
      client.release();
    }
  }

  migrate(namespace: string, migrations: DialectMigrations): Promise<number[]> {
    return applyPostgresMigrations(this.pool, namespace, migrations.postgres);
  }

  async exclusive<T>(name: string, work: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      try {
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
      }
    } finally {
      client.release();
    }
  }

  /** Other replicas write too, and asking would cost the round trip a memo saves. */
  async changeStamp(): Promise<undefined> {
    return undefined;
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}

export function postgresPool(url: string, max = DEFAULT_POOL_SIZE): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types });
  // An idle connection that the server drops (restart, failover) must not crash the process;
  // the pool discards it and the next query opens another.
  pool.on('error', () => undefined);
  return pool;
}

export function openPostgresDatabase(url: string, poolSize = DEFAULT_POOL_SIZE): PostgresDatabase {
  return new PostgresDatabase(postgresPool(url, poolSize));
}
