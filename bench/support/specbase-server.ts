/**
 * A Specbase server in its own process for the benchmarks: the whole service (as main.ts
 * composes it) on a loopback port over a prepared data directory (BENCH_DATA_DIR). It talks to
 * the runner over IPC: it announces its port, measures its own event-loop delay on request,
 * and shuts down gracefully (saving state) when told to.
 */
import { createHttpApp } from '../../src/app/http.js';
import { listen, shutdown } from '../../src/app/server.js';
import { openServices } from '../../src/app/services.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log.js';
import { serveProbeRequests } from './child-ipc.js';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');

// The load generator is one user driving the server flat out: the per-user tool-call limit
// (600 a minute by default) would measure itself, not the server. Set to override.
const env = {
  SPECBASE_TOOL_CALLS_PER_MINUTE: '0',
  ...process.env,
  HOST: '127.0.0.1',
  SPECBASE_DATA_DIR: dataDir,
  SPECBASE_LOG_LEVEL: 'silent',
};
const { server, port } = await listen(loadConfig({ ...env, PORT: '0' }));
const config = loadConfig({ ...env, PORT: String(port), SPECBASE_BASE_URL: `http://127.0.0.1:${port}` });
const services = await openServices(config);
const app = await createHttpApp(services, createLogger(config.logLevel));
server.on('request', app.app);

serveProbeRequests(async () => {
  await Promise.all([shutdown(server, 500), app.drain(500)]);
  await app.close();
  await services.close();
});
process.send!({ kind: 'ready', port });
