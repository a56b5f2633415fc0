import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { webhookService } from '../../../src/app/webhooks.js';
import { loadConfig } from '../../../src/config/index.js';
import type { WebhookStore } from '../../../src/control/index.js';
import { createLogger } from '../../../src/log.js';

/** The server's log lines while a webhook service starts, with or without the development setting. */
async function startupLines(env: Record<string, string>, deliver: boolean): Promise<Record<string, unknown>[]> {
  const out = new PassThrough();
  const lines: string[] = [];
  out.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const idle = { queues: async () => [] } as unknown as WebhookStore;
  const service = webhookService(idle, loadConfig(env), createLogger('info', out), deliver);
  await service.close();
  await new Promise((resolve) => setImmediate(resolve));
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the webhook development setting', () => {
  it('is announced as a warning by the server that delivers, and never when off', async () => {
    const on = await startupLines({ SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on' }, true);
    expect(on).toEqual([
      expect.objectContaining({
        level: 40,
        setting: 'SPECBASE_WEBHOOK_ALLOW_LOCALHOST',
        msg: expect.stringMatching(/^DEVELOPMENT SETTING ON: webhooks may be sent to http:\/\/localhost/),
      }),
    ]);
    expect(await startupLines({}, true)).toEqual([]);
    // A CLI command does not deliver: it says nothing of a setting that is the server's.
    expect(await startupLines({ SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on' }, false)).toEqual([]);
  });
});
