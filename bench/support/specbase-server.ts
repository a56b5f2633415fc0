/**
 * A Specbase server in its own process for the benchmarks: the whole service (as main.ts
 * composes it) on a loopback port over a prepared data directory (BENCH_DATA_DIR). It talks to
 * the runner over IPC: it announces its port, measures its own event-loop delay on request,
 * and shuts down gracefully (saving state) when told to.
 */
import { serveProbeRequests } from './child-ipc.js';

/**
 * The service as `npm start` runs it, compiled JavaScript from dist/ (startSpecbase builds it
 * when src/ is newer), typed by its sources. Run from sources, each thread the service starts
 * would compile TypeScript through tsx first: 0.4 s of a cold start's index worker.
 */
const built = <T>(module: string): Promise<T> =>
  import(new URL(`../../dist/${module}`, import.meta.url).href) as Promise<T>;
const [{ createHttpApp }, { listen, shutdown }, { openServices }, { loadConfig }, { createLogger }] = await Promise.all(
  [
    built<typeof import('../../src/app/http.js')>('app/http.js'),
    built<typeof import('../../src/app/server.js')>('app/server.js'),
    built<typeof import('../../src/app/services.js')>('app/services.js'),
    built<typeof import('../../src/config/index.js')>('config/index.js'),
    built<typeof import('../../src/log.js')>('log.js'),
  ],
);

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');

// The load generator is one user driving the server flat out: the per-user tool-call limit
// (600 a minute by default) and the cap on connections per address would measure themselves,
// not the server. Set to override.
const env = {
  SPECBASE_TOOL_CALLS_PER_MINUTE: '0',
  SPECBASE_MAX_CONNECTIONS_PER_ADDRESS: '0',
  ...process.env,
  HOST: '127.0.0.1',
  SPECBASE_DATA_DIR: dataDir,
  SPECBASE_LOG_LEVEL: 'silent',
};
const { server, port } = await listen(loadConfig({ ...env, PORT: '0' }));
const config = loadConfig({ ...env, PORT: String(port), SPECBASE_BASE_URL: `http://127.0.0.1:${port}` });
const services = await openServices(config);
const app = await createHttpApp(services, createLogger(config.logLevel));
server.on('request', app.listener);

serveProbeRequests(async () => {
  await Promise.all([shutdown(server, 500), app.drain(500)]);
  await app.close();
  await services.close();
});
process.send!({ kind: 'ready', port });
