import { Worker } from 'node:worker_threads';
import { moduleBeside } from '../module-beside.js';

/**
 * A worker thread running the module `name` beside `callerUrl` (the caller's import.meta.url).
 * Run from sources (tests, `tsx`) the module is TypeScript too: the thread first registers
 * tsx's loader, which `execArgv` cannot do for a worker in Node 20.
 */
export function startWorker(callerUrl: string, name: string, workerData?: unknown): Worker {
  const { url: entry, fromSources } = moduleBeside(callerUrl, name);
  if (!fromSources) return new Worker(entry, { workerData });
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
