import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openControlPlane, type SqliteControlPlane } from '../../../src/control/index.js';

/** A control plane on a fresh SQLite file, with a clock the test can move. */
export interface ControlFixture {
  readonly file: string;
  readonly control: SqliteControlPlane;
  readonly clock: { now: Date };
  /** Another connection to the same file, as after a restart. */
  reopen(): Promise<SqliteControlPlane>;
  cleanup(): Promise<void>;
}

export async function controlFixture(): Promise<ControlFixture> {
  const dir = await mkdtemp(path.join(tmpdir(), 'specbase-control-'));
  const file = path.join(dir, 'data', 'specbase.db');
  const clock = { now: new Date('2030-01-01T00:00:00.000Z') };
  const opened: SqliteControlPlane[] = [];
  const reopen = async () => {
    const control = await openControlPlane({ file, clock: () => clock.now });
    opened.push(control);
    return control;
  };
  const control = await reopen();
  return {
    file,
    control,
    clock,
    reopen,
    async cleanup() {
      for (const each of opened) await each.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const later = (clock: { now: Date }, ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms);
};
