import { mkdtemp, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openControlPlane, type SqlControlPlane } from '../../../src/control/index.js';
import { STAMP_HELD_MS } from '../../../src/control/sqlite/database.js';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.js';

/** Every contract test runs once per backend: the same behaviour is the contract. */
export const BACKENDS = ['sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

/**
 * Waits as long as a commit of another process (the CLI, a second connection) may take to show
 * in reads kept in memory: SQLite's data_version is read at most every STAMP_HELD_MS.
 */
export const afterAnotherProcessCommits = () => sleep(STAMP_HELD_MS + 1);

/** A control plane on a fresh database of one backend, with a clock the test can move. */
export interface ControlFixture {
  readonly backend: Backend;
  readonly control: SqlControlPlane;
  readonly clock: { now: Date };
  /** Another connection to the same database, as after a restart. */
  reopen(): Promise<SqlControlPlane>;
  cleanup(): Promise<void>;
}

/**
 * Call inside a `describe` of one backend: starts PostgreSQL for that block when needed and
 * returns the factory of fresh fixtures.
 */
export function controlBackend(backend: Backend): { fixture(): Promise<ControlFixture> } {
  let server: TestPostgres | undefined;
  if (backend === 'postgres') {
    beforeAll(async () => {
      server = await startTestPostgres();
    });
    afterAll(async () => server?.stop());
  }
  return {
    async fixture() {
      const dir = await mkdtemp(path.join(tmpdir(), 'specbase-control-'));
      const where = server
        ? { databaseUrl: await server.freshDatabase() }
        : { file: path.join(dir, 'data', 'specbase.db') };
      const clock = { now: new Date('2030-01-01T00:00:00.000Z') };
      const opened: SqlControlPlane[] = [];
      const reopen = async () => {
        const control = await openControlPlane({ ...where, clock: () => clock.now });
        opened.push(control);
        return control;
      };
      const control = await reopen();
      return {
        backend,
        control,
        clock,
        reopen,
        async cleanup() {
          for (const each of opened) await each.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

export const later = (clock: { now: Date }, ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms);
};
