import { symlinkSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { makeSmallDisk, smallDisksSupported, type SmallDisk } from '../../support/small-disk.js';
import { call, callError, connect } from '../mcp/clients.js';

/**
 * The control database (specbase.db) on a disk of its own that fills up while the service
 * runs; the repositories stay on a writable disk. The data directory holds a
 * symbolic link to the database, which SQLite follows (its -wal and -shm files live beside
 * the database on that disk).
 */
async function harnessOnSmallDisk(disk: SmallDisk, env: Record<string, string> = {}): Promise<Harness> {
  return startHarness({
    env,
    prepareDataDir: (dataDir) => symlinkSync(path.join(disk.dir, 'specbase.db'), path.join(dataDir, 'specbase.db')),
  });
}

interface Health {
  status: string;
  droppedAuditRows: number;
  heldAuditRows: number;
}

async function health(h: Harness): Promise<{ status: number; body: Health }> {
  const response = await fetch(`${h.baseUrl}/healthz`);
  return { status: response.status, body: (await response.json()) as Health };
}

describe.skipIf(!smallDisksSupported())('with the control database on a disk that fills up', () => {
  const HELD = 5;
  let disk: SmallDisk;
  let h: Harness;
  let client: Client;

  beforeAll(async () => {
    disk = makeSmallDisk();
    h = await harnessOnSmallDisk(disk, { SPECBASE_AUDIT_HELD_ROWS: String(HELD) });
    client = await connect(h, 'editor');
  });

  afterAll(async () => {
    disk?.free();
    await client?.close();
    await h?.close();
    disk?.remove();
  });

  it('holds the audit rows of tool calls while it is full, writes them once it has room, and counts those past the bound', async () => {
    await call(client, 'specbase_read_product');
    await h.services.control.audit.drain();
    // An empty write-ahead log, so that the next write needs a new block of the disk.
    await h.services.control.db.get('PRAGMA wal_checkpoint(TRUNCATE)');
    disk.fill();

    // Eight calls while full, each recording an audit row naming the id it asked for.
    const during = Array.from({ length: 8 }, () => newId());
    for (const featureId of during) expect(await callError(client, 'specbase_read_feature', { featureId })).toBe('artifact not found');
    // Reading still works.
    expect((await call(client, 'specbase_read_product')).data.id).toBe(h.productId);
    await expect.poll(async () => (await health(h)).body, { timeout: 10_000 }).toMatchObject({ heldAuditRows: HELD, droppedAuditRows: during.length + 1 - HELD });

    disk.free();
    // With no new call, the held rows are tried again on their own.
    await expect.poll(async () => (await health(h)).body.heldAuditRows, { timeout: 15_000 }).toBe(0);
    const after = newId();
    expect(await callError(client, 'specbase_read_feature', { featureId: after })).toBe('artifact not found');
    const logged = await h.services.control.audit.list({ orgId: h.orgId, limit: 100 });
    const asked = new Set([...during, after]);
    // The newest rows were held (the last four reads of a feature and the read of the product) and are
    // written now, in the order of the calls; the oldest four were dropped.
    const kept = [...during.slice(-(HELD - 1)), after];
    expect(logged.filter((row) => asked.has(row.artifactId ?? '')).map((row) => row.artifactId).reverse()).toEqual(kept);

    const ready = await health(h);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', heldAuditRows: 0, droppedAuditRows: during.length + 1 - HELD });
  });
});
