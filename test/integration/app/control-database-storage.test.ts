import { symlinkSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageFailureOf } from '../../../src/errors.js';
import { newId } from '../../../src/ids.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { makeSmallDisk, smallDisksSupported, type SmallDisk } from '../../support/small-disk.js';
import { call, callError, connect } from '../mcp/clients.js';
import { launchBrowser } from '../web/support.js';

/**
 * The control database (specbase.db) on a disk of its own that fills up or turns read-only
 * while the service runs; the repositories stay on a writable disk. The data directory holds a
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
  reason?: string;
  droppedAuditRows: number;
  heldAuditRows: number;
}

async function health(h: Harness): Promise<{ status: number; body: Health }> {
  const response = await fetch(`${h.baseUrl}/healthz`);
  return { status: response.status, body: (await response.json()) as Health };
}

/** The sentence of StorageUnavailableError for SQLite's error `code`. */
const cannotWrite = (code: string) => storageFailureOf(Object.assign(new Error('refused'), { code }))!.message;

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

    const unready = await health(h);
    expect(unready.status).toBe(503);
    expect(unready.body.reason).toBe('the control database cannot be written: the server cannot write (disk full)');

    // Eight calls while full, each recording an audit row naming the id it asked for.
    const during = Array.from({ length: 8 }, () => newId());
    for (const featureId of during)
      expect(await callError(client, 'specbase_read_feature', { featureId })).toBe('artifact not found');
    // Reading still works.
    expect((await call(client, 'specbase_read_product')).data.id).toBe(h.productId);
    await expect
      .poll(async () => (await health(h)).body, { timeout: 10_000 })
      .toMatchObject({ heldAuditRows: HELD, droppedAuditRows: during.length + 1 - HELD });

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
    expect(
      logged
        .filter((row) => asked.has(row.artifactId ?? ''))
        .map((row) => row.artifactId)
        .reverse(),
    ).toEqual(kept);

    const ready = await health(h);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', heldAuditRows: 0, droppedAuditRows: during.length + 1 - HELD });
  });
});

describe.skipIf(!smallDisksSupported())('with the control database on a file system the kernel turns read-only', () => {
  let disk: SmallDisk;
  let h: Harness;
  let client: Client;
  let browser: Browser;

  beforeAll(async () => {
    disk = makeSmallDisk();
    h = await harnessOnSmallDisk(disk);
    client = await connect(h, 'editor');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await h?.close();
    disk?.remove();
  });

  it('sign-in ends on a 503 page saying the server cannot write, /healthz is not ready, and reading still works', async () => {
    // One browser reaches the password form before the disk turns read-only, another starts after.
    const early = await (await browser.newContext()).newPage();
    await early.goto(`${h.baseUrl}/o/${h.orgId}`);
    await early.getByLabel('Email').fill(h.users.viewer.user.email);
    await early.getByLabel('Password').fill(h.users.viewer.password);
    // A third is on its way from /signin to the identity provider, whose own pages come next.
    const started = await fetch(`${h.baseUrl}/signin`, { redirect: 'manual' });
    const provider = new URL(started.headers.get('location')!, h.baseUrl);
    expect(provider.pathname).toBe('/oidc/auth');
    expect((await health(h)).status).toBe(200);

    disk.turnReadOnly();
    // SQLite reports a write the kernel refused as a disk I/O error, without the system's reason.
    const sentence = cannotWrite('SQLITE_IOERR_WRITE');

    const unready = await health(h);
    expect(unready.status).toBe(503);
    expect(unready.body.reason).toBe(
      'the control database cannot be written: the server cannot write (disk I/O error)',
    );

    const [submitted] = await Promise.all([
      early.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/login')),
      early.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(submitted.status()).toBe(503);
    expect(await early.locator('h1').innerText()).toBe('Cannot sign in now');
    expect(await early.locator('main p').innerText()).toBe(sentence);

    const late = await (await browser.newContext()).newPage();
    const landed = await late.goto(`${h.baseUrl}/o/${h.orgId}`);
    expect(landed?.status()).toBe(503);
    expect(new URL(late.url()).pathname).toBe('/signin');
    expect(await late.locator('main p').innerText()).toBe(sentence);

    const atProvider = await fetch(provider, { redirect: 'manual' });
    expect(atProvider.status).toBe(503);
    expect(await atProvider.text()).toContain(`<p>${sentence}</p>`);

    // An assistant already connected still reads; its audit rows wait in memory.
    expect((await call(client, 'specbase_read_product')).data.id).toBe(h.productId);
    await expect.poll(async () => (await health(h)).body.heldAuditRows, { timeout: 10_000 }).toBe(1);
  });

  it('an assistant whose token was not used in the last minute still connects and reads', async () => {
    // The viewer's token was never used: verifying it records its last use, which the disk refuses.
    const viewer = await connect(h, 'viewer');
    try {
      expect((await call(viewer, 'specbase_read_product')).data.id).toBe(h.productId);
    } finally {
      await viewer.close();
    }
  });
});
