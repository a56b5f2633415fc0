import { storageFailureOf } from '../errors.js';
import type { Clock } from './clock.js';
import type { SqlDatabase } from './sql/types.js';

const PROBE = 'INSERT INTO write_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at';

/**
 * Why the control database cannot be written now, or undefined: one small row written, as every
 * sign-in, session and audit row must be. Reads alone would not tell: a database whose disk
 * turned read-only or full still answers them.
 */
export async function controlWriteProblem(db: SqlDatabase, clock: Clock): Promise<string | undefined> {
  try {
    await db.run(PROBE, [clock().toISOString()]);
    return undefined;
  } catch (error) {
    const failure = storageFailureOf(error);
    const why = failure ? failure.message.split(';')[0]! : (error as Error).message;
    return `the control database cannot be written: ${why}`;
  }
}
