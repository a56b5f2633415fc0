import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { launchBrowser, signIn } from '../web/support.js';
import { call, callError, connect } from './clients.js';

/**
 * A requirement's type has one source of truth, its document's `**Requirement type:**` line:
 * editing the line changes the type that reads, listings, the web badge and the file agree on.
 */
let h: Harness;
let editor: Client;
let browser: Browser;
let requirementId: string;

const git = (...args: string[]) => execFileSync('git', ['--git-dir', h.gitdir, ...args], { encoding: 'utf8' }).trim();
const typeLine = (content: string) => content.split('\n').find((line) => line.startsWith('**Requirement type:**'))!;

beforeAll(async () => {
  h = await startHarness();
  editor = await connect(h, 'editor');
  browser = await launchBrowser();
  const capabilityId = (await call(editor, 'specbase_list_capabilities', { productId: h.productId })).data.items[0].id;
  const featureId = (await call(editor, 'specbase_list_features', { capabilityId })).data.items[0].id;
  requirementId = (
    await call(editor, 'specbase_create_requirement', { featureId, title: 'Card data stays with the provider' })
  ).data.id;
});
afterAll(async () => {
  await browser?.close();
  await editor?.close();
  await h?.close();
});

async function edit(from: string, to: string) {
  return call(editor, 'specbase_edit_requirement', { requirementId, patch: `@@\n-${from}\n+${to}\n` });
}

async function agreedType(): Promise<string> {
  const read = await call(editor, 'specbase_read_requirement', { requirementId, mode: 'full' });
  const file = git(
    'show',
    `main:${git('ls-tree', '-r', '--name-only', 'main', 'requirements/')
      .split('\n')
      .find((p) => p.includes(requirementId.slice(0, 8)))}`,
  );
  const signedIn = await signIn(browser, h, 'editor', `/o/${h.orgId}/a/${requirementId}`);
  try {
    const badge = (await signedIn.page.locator('.badges .badge.req').textContent())!.trim();
    expect(file).toContain(`requirementType: ${read.data.requirementType}`);
    expect(badge.toUpperCase().replace(/[- ]/g, '_')).toBe(read.data.requirementType);
    expect(read.text.split('\n')[0]).toContain(`(${read.data.requirementType})`);
  } finally {
    await signedIn.context.close();
  }
  return read.data.requirementType as string;
}

describe('the requirement type line', () => {
  it('decides the type: an edit of it to CONSTRAINT makes the requirement a constraint everywhere', async () => {
    const read = await call(editor, 'specbase_read_requirement', { requirementId, mode: 'full' });
    expect(read.data.requirementType).toBe('FUNCTIONAL');
    await edit(typeLine(read.data.content), '**Requirement type:** CONSTRAINT (limits)');
    expect(await agreedType()).toBe('CONSTRAINT');
  });

  it('accepts the spellings people write, and a restore brings the old type back', async () => {
    const before = await call(editor, 'specbase_read_requirement', { requirementId, mode: 'full' });
    const edited = await edit(typeLine(before.data.content), '**Requirement type:** non-functional (qualities)');
    expect((await call(editor, 'specbase_read_requirement', { requirementId })).data.requirementType).toBe(
      'NON_FUNCTIONAL',
    );
    // "Restore this version" of the web application, through the same domain call.
    const principal = (await h.services.control.members.principal(h.orgId, h.users.editor.user.id))!;
    await h.services.specs.restore({ principal, client: 'web' }, requirementId, before.data.version);
    expect(edited.data.version).not.toBe(before.data.version);
    expect(await agreedType()).toBe('CONSTRAINT');
  });

  it('refuses a line that names no type, and changes nothing', async () => {
    const before = await call(editor, 'specbase_read_requirement', { requirementId, mode: 'full' });
    const head = git('rev-parse', 'main');
    expect(
      await callError(editor, 'specbase_edit_requirement', {
        requirementId,
        patch: `@@\n-${typeLine(before.data.content)}\n+**Requirement type:** NICE_TO_HAVE\n`,
      }),
    ).toBe(
      'the **Requirement type:** line names "NICE_TO_HAVE"; use one of FUNCTIONAL, NON_FUNCTIONAL, CONSTRAINT, BUSINESS_RULE',
    );
    expect(git('rev-parse', 'main')).toBe(head);
  });

  it('keeps the stored type when an edit removes the line', async () => {
    const before = await call(editor, 'specbase_read_requirement', { requirementId, mode: 'full' });
    await edit(typeLine(before.data.content), 'Type line removed.');
    expect((await call(editor, 'specbase_read_requirement', { requirementId })).data.requirementType).toBe(
      'CONSTRAINT',
    );
  });
});
