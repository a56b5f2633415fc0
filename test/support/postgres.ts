import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);

const HOW_TO_INSTALL =
  'PostgreSQL is needed for these tests. Install it (Debian: `apt-get install postgresql`; `.ci/run` does this) ' +
  'or set SPECBASE_TEST_DATABASE_URL=postgres://user:password@127.0.0.1:5432/postgres to a server where that user may create databases.';

/** A PostgreSQL server for tests: each `freshDatabase()` is an empty database of its own. */
export interface TestPostgres {
  /** Connection URL of an empty database created for the caller. */
  freshDatabase(): Promise<string>;
  /** Lets connections to one of our databases in, or turns them away and cuts those open: an outage. */
  setReachable(databaseUrl: string, reachable: boolean): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The server named by SPECBASE_TEST_DATABASE_URL (the suite's global setup starts one cluster per
 * run and names it there), else a throwaway cluster of its own. Never skips: without PostgreSQL
 * it throws with instructions.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env.SPECBASE_TEST_DATABASE_URL;
  if (given) return onServer(given, async () => undefined);
  const cluster = await startThrowawayCluster();
  return onServer(cluster.url, cluster.stop);
}

/**
 * A throwaway cluster from the installed PostgreSQL binaries in a temporary directory: loopback
 * only, unix sockets inside that directory, run as the `postgres` user when we are root (initdb
 * refuses root). Its `url` is the superuser's.
 */
export async function startThrowawayCluster(): Promise<{ url: string; stop(): Promise<void> }> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(`no PostgreSQL binaries found (looked in /usr/lib/postgresql/*/bin and PATH). ${HOW_TO_INSTALL}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'specbase-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
      throw new Error(`running as root but there is no postgres user to run the server as. ${HOW_TO_INSTALL}`);
    });
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  const data = path.join(dir, 'data');
  const port = await freePort();
  try {
    await as('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    await as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(
      `could not start a throwaway PostgreSQL with ${bin}: ${(error as Error).message}. ${HOW_TO_INSTALL}`,
    );
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Whether PostgreSQL's server binaries are installed here. */
export const hasPostgresBinaries = (): boolean => postgresBinDir() !== undefined;

function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return path.join(root, versions[0]!, 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  return undefined;
}

async function onServer(adminUrl: string, shutdown: () => Promise<void>): Promise<TestPostgres> {
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    await shutdown();
    throw new Error(
      `could not connect to PostgreSQL at ${adminUrl.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}. ${HOW_TO_INSTALL}`,
    );
  }
  const created: string[] = [];
  return {
    async freshDatabase() {
      const name = `specbase_test_${process.pid}_${created.length}_${Math.random().toString(36).slice(2, 8)}`;
      await admin.query(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.href;
    },
    async setReachable(databaseUrl, reachable) {
      const name = new URL(databaseUrl).pathname.slice(1);
      if (!created.includes(name)) throw new Error(`not a test database: ${name}`);
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${reachable}`);
      if (!reachable)
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    },
    async stop() {
      for (const name of created)
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
      await shutdown();
    },
  };
}
