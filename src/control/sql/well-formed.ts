import { InvalidInputError } from '../../errors.js';
import type { Migration } from './types.js';

/** A namespace and its migrations, checked before either backend touches the database. */
export function assertWellFormed(namespace: string, migrations: readonly Migration[]): void {
  if (!namespace.trim()) throw new InvalidInputError('a migration namespace must not be empty');
  const seen = new Set<number>();
  for (const { version } of migrations) {
    if (!Number.isInteger(version) || version < 1) {
      throw new InvalidInputError(`migration versions are positive integers, got ${version}`);
    }
    if (seen.has(version)) throw new InvalidInputError(`migration version ${version} appears twice in ${namespace}`);
    seen.add(version);
  }
}

export const inVersionOrder = (migrations: readonly Migration[]) =>
  [...migrations].sort((a, b) => a.version - b.version);
