/**
 * One `specbase export` of a whole organization, in a process of its own so that its memory is
 * the export's: the CLI's own command, run on services opened as the CLI opens them, with the
 * organization loaded first. While the archive is written, the resident set is sampled every
 * 5 ms and the live heap (what a full collection leaves) every 250 ms; the heap at a moment is
 * mostly garbage waiting for the collector's next turn, the live heap is what the export keeps.
 * The collections cost the export a little time.
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
  readonly liveStart: number;
  readonly livePeak: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function measureExport(request: ExportRequest): Promise<ExportMeasure> {
  const services = await openServices(
    loadConfig({ SPECBASE_DATA_DIR: request.dataDir, SPECBASE_LOG_LEVEL: 'silent' }),
    { deliverWebhooks: false },
  );
  try {
    await services.store.catalog(request.orgId);
    gc();
    const start = process.memoryUsage();
    let rssPeak = start.rss;
    let livePeak = start.heapUsed;
    const rss = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 5);
    const live = setInterval(() => {
      gc();
      livePeak = Math.max(livePeak, process.memoryUsage().heapUsed);
    }, 250);
    const started = performance.now();
    const result = await EXPORT_COMMAND.run(services, {
      org: request.orgId,
      user: request.email,
      out: request.out,
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(rss);
    clearInterval(live);
    return {
      files: Number(result.files),
      seconds,
      rssStart: start.rss,
      rssPeak,
      liveStart: start.heapUsed,
      livePeak,
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
