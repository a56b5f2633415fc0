import { startupBanner } from './app/banner.js';
import { createHttpApp } from './app/http.js';
import { listen, shutdown } from './app/server.js';
import { openServices } from './app/services.js';
import { ConfigError, loadConfig } from './config/index.js';
import { recordBaseUrl } from './config/recorded-base-url.js';
import { startupDemo } from './demo/seed.js';
import { createLogger, flushLog } from './log.js';

/** How long tool calls under way may take to finish once shutdown begins. */
const SHUTDOWN_DRAIN_MS = 5_000;

/**
 * Everything the service creates (the data directory, specbase.db, repositories, keys) is for
 * its own user alone: files 0600 and directories 0700, git's files included (it inherits this).
 */
const OWNER_ONLY = 0o077;

async function main(): Promise<void> {
  process.umask(OWNER_ONLY);
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const services = await openServices(config, { log, onError: (err) => log.warn({ err }, 'replication') });
  // Replicas starting together on one database create one demo organization, not one each.
  const startup = await services.control.db.exclusive('specbase-demo', () => startupDemo(services));
  if (startup.created) log.info({ orgId: startup.demo.orgId }, 'created the demo organization');
  else if (!startup.demo) log.info({ reason: startup.reason }, 'no demo organization');
  const http = await createHttpApp(services, log);
  const { server } = await listen(config);
  server.on('request', http.listener);
  await recordBaseUrl(config.dataDir, config.baseUrl);

  let stopping = false;
  const stop = async (signal: string) => {
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Stop accepting, let tool calls under way commit and answer, then end the MCP streams that
    // would otherwise hold the server open until the grace period runs out.
    await Promise.all([shutdown(server), http.drain(SHUTDOWN_DRAIN_MS)]);
    await http.close();
    await services.close();
    log.info('stopped');
    // Exiting explicitly: log lines still queued for a reader that stopped reading must not
    // keep the process alive; they get a bounded moment to leave, then they are dropped.
    await flushLog(log);
    process.exit(0);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      log.flush();
      process.exit(1);
    }
    stopping = true;
    void stop(signal);
  };
  // Installed before anything announces readiness: a supervisor may signal as soon as it reads
  // the banner or the 'listening' line below.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  // A closed stdout (its reader gone) must not end the service: the banner is lost, nothing else.
  process.stdout.on('error', (error: NodeJS.ErrnoException) =>
    log.warn({ code: error.code }, 'stdout is closed: the start-up banner was not shown'),
  );
  process.stdout.write(startupBanner(config.baseUrl, startup));
  log.info({ baseUrl: config.baseUrl, host: config.host, port: config.port }, 'listening');
}

main().catch((error: unknown) => {
  process.stderr.write(
    `specbase: ${error instanceof ConfigError ? error.message : ((error as Error).stack ?? String(error))}\n`,
  );
  process.exit(1);
});
