import { hasPostgresBinaries, startThrowawayCluster } from './postgres.js';

/**
 * One PostgreSQL cluster for the whole run, named to every test file through
 * SPECBASE_TEST_DATABASE_URL (each file then works in databases of its own): a cluster of its
 * own per file cost each file seconds of initdb. Without the binaries nothing starts, and the
 * files that need PostgreSQL say how to install it.
 */
export default async function startSharedPostgres(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.SPECBASE_TEST_DATABASE_URL || !hasPostgresBinaries()) return undefined;
  const cluster = await startThrowawayCluster();
  process.env.SPECBASE_TEST_DATABASE_URL = cluster.url;
  return () => cluster.stop();
}
