/**
 * One `specbase export` of a whole organization, in a process of its own so that its memory is
 * the export's: the CLI's own command, run on services opened as the CLI opens them, with the
 * organization loaded first. Memory is sampled every few milliseconds while the archive is
 * written; the answer is the time, the file count, and resident set and heap at the start
 * (after a full collection) and at most.
 */
import { openServices } from '../../src/app/services.js';
import { EXPORT_COMMAND } from '../../src/cli/export-command.js';
import { loadConfig } from '../../src/config/index.js';
import { exitWithParent } from './child-ipc.js';

export interface ExportRequest {
  readonly kind: 'export';
  readonly dataDir: string;
  readonly orgId: string;
  readonly email: string;
  readonly out: string;
}

export interface ExportMeasure {
  readonly files: number;
  readonly seconds: number;
  readonly rssStart: number;
  readonly rssPeak: number;
  readonly heapStart: number;
  readonly heapPeak: number;
}

async function measureExport(request: ExportRequest): Promise<ExportMeasure> {
  const services = await openServices(
    loadConfig({ SPECBASE_DATA_DIR: request.dataDir, SPECBASE_LOG_LEVEL: 'silent' }),
    { deliverWebhooks: false },
  );
  try {
    await services.store.catalog(request.orgId);
    (globalThis as { gc?: () => void }).gc?.();
    const start = process.memoryUsage();
    let rssPeak = start.rss;
    let heapPeak = start.heapUsed;
    const sample = () => {
      const now = process.memoryUsage();
      rssPeak = Math.max(rssPeak, now.rss);
      heapPeak = Math.max(heapPeak, now.heapUsed);
    };
    const sampler = setInterval(sample, 5);
    const started = performance.now();
    const result = await EXPORT_COMMAND.run(services, {
      org: request.orgId,
      user: request.email,
      out: request.out,
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    sample();
    return {
      files: Number(result.files),
      seconds,
      rssStart: start.rss,
      rssPeak,
      heapStart: start.heapUsed,
      heapPeak,
    };
  } finally {
    await services.close();
  }
}

process.on('message', (request: ExportRequest) => {
  measureExport(request).then(
    (value) => process.send!({ kind: 'answer', value }),
    (error: unknown) => process.send!({ kind: 'failed', message: String(error) }),
  );
});
exitWithParent();
process.send!({ kind: 'ready' });
