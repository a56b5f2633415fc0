import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { call, callError, connect } from '../mcp/clients.js';

/** Delete and restore from the command line, seen by the running service: one commit each. */
let h: Harness;
let editor: Client;
let capabilityId: string;

const git = (...args: string[]) => execFileSync('git', ['--git-dir', h.gitdir, ...args], { encoding: 'utf8' }).trim();
const head = () => git('rev-parse', 'main');
const files = () => git('ls-tree', '-r', '--name-only', 'main');

async function cli(persona: Persona, ...args: string[]): Promise<{ code: number; out: Record<string, any> }> {
  const email = h.users[persona].user.email;
  try {
    const { stdout } = await runCli(
      ['artifact', ...args, '--org', h.orgId, '--user', email, '--json', '--data-dir', h.dataDir],
      {
        ...process.env,
        SPECBASE_LOG_LEVEL: 'silent',
      },
    );
    return { code: 0, out: JSON.parse(stdout) };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, out: JSON.parse(e.stderr) };
  }
}

/** A search as the assistant makes it: the ids found for `word`. */
const found = async (word: string) =>
  ((await call(editor, 'specbase_search', { query: word })).data.results as { id: string }[]).map((r) => r.id);

let featureId: string;
let requirementIds: string[];
let criterionId: string;

beforeAll(async () => {
  h = await startHarness();
  editor = await connect(h, 'editor');
  capabilityId = (await call(editor, 'specbase_list_capabilities', { productId: h.productId })).data.items[0].id;
  featureId = (
    await call(editor, 'specbase_create_feature', {
      capabilityId,
      content: '# Loyalty points\n\nShoppers earn zebracorn points.\n',
    })
  ).data.id;
  requirementIds = [];
  for (const title of ['Points expire', 'Points transfer']) {
    requirementIds.push((await call(editor, 'specbase_create_requirement', { featureId, title })).data.id);
  }
  criterionId = (
    await call(editor, 'specbase_create_acceptance_criterion', {
      requirementId: requirementIds[0],
      title: 'Expired points vanish',
    })
  ).data.id;
});
afterAll(async () => {
  await editor?.close();
  await h?.close();
});

describe('artifact delete and restore', () => {
  it('refuses an artifact with children without --recursive, saying how many; the product never', async () => {
    const before = head();
    const refused = await cli('editor', 'delete', '--id', featureId);
    expect(refused.code).toBe(1);
    expect(refused.out.message).toBe(
      'the feature has 3 descendants; delete it recursively to delete them with it, or move them first',
    );
    expect((await cli('owner', 'delete', '--id', h.productId, '--recursive')).out.message).toBe(
      'the product cannot be deleted',
    );
    expect(head()).toBe(before);
  });

  it('lets neither a viewer nor a non-member delete; the non-member learns nothing', async () => {
    const before = head();
    expect((await cli('viewer', 'delete', '--id', featureId, '--recursive')).out.message).toMatch(/^permission denied/);
    expect((await cli('outsider', 'delete', '--id', featureId, '--recursive')).out.message).toBe('artifact not found');
    expect((await cli('outsider', 'delete', '--id', '00000000-0000-4000-8000-000000000000')).out.message).toBe(
      'artifact not found',
    );
    expect(head()).toBe(before);
  });

  it('deletes with --recursive in one commit by the user; read, list, search and edit then say not found', async () => {
    expect(await found('zebracorn')).toContain(featureId);
    const before = head();
    const done = await cli('editor', 'delete', '--id', featureId, '--recursive');
    expect(done.code).toBe(0);
    expect(done.out.deleted).toEqual({ id: featureId, type: 'feature', title: 'Loyalty points' });
    expect(done.out.descendants.map((d: { id: string }) => d.id).sort()).toEqual(
      [...requirementIds, criterionId].sort(),
    );
    expect(git('rev-list', '--count', `${before}..main`)).toBe('1');
    expect(git('log', '-1', '--format=%an <%ae>%n%s', 'main')).toBe(
      'Editor Tester <editor@example.com>\nDelete feature: Loyalty points',
    );
    const body = git('log', '-1', '--format=%B', 'main');
    expect(body).toContain(`Artifact-Id: ${featureId}`);
    expect(body).toContain('Client: cli');
    for (const id of [featureId, ...requirementIds, criterionId]) expect(files()).not.toContain(id.slice(0, 8));
    git('fsck', '--strict');

    // Still "artifact not found", and to someone who may read it, when, by whom and how to bring it back.
    const deletedNote = /^artifact not found: \S+ was deleted at \S+ by Editor Tester \(commit [0-9a-f]{12}\); /;
    expect(await callError(editor, 'specbase_read_feature', { featureId })).toMatch(deletedNote);
    expect(await callError(editor, 'specbase_read_requirement', { requirementId: requirementIds[0] })).toContain(
      'it went with a deleted parent: restore that one',
    );
    expect(await callError(editor, 'specbase_list_requirements', { featureId })).toMatch(deletedNote);
    const features = (await call(editor, 'specbase_list_features', { capabilityId })).data.items as { id: string }[];
    expect(features.map((f) => f.id)).not.toContain(featureId);
    expect(await found('zebracorn')).not.toContain(featureId);
    expect(await callError(editor, 'specbase_edit_feature', { featureId, patch: '@@\n-a\n+b\n' })).toMatch(deletedNote);
  });

  it('refuses to restore a descendant while its parent is deleted, with the reason', async () => {
    const before = head();
    const refused = await cli('editor', 'restore', '--id', requirementIds[1]!);
    expect(refused.out.message).toBe(
      'the requirement cannot be restored while its parent feature "Loyalty points" is deleted; restore that first',
    );
    expect((await cli('viewer', 'restore', '--id', featureId)).out.message).toMatch(/^permission denied/);
    expect((await cli('outsider', 'restore', '--id', featureId)).out.message).toBe('artifact not found');
    expect(head()).toBe(before);
  });

  it('restores the artifact with its id, content and descendants in one commit; its history is continuous', async () => {
    const before = head();
    const done = await cli('editor', 'restore', '--id', featureId);
    expect(done.code).toBe(0);
    expect(done.out.descendants).toHaveLength(3);
    expect(git('rev-list', '--count', `${before}..main`)).toBe('1');
    expect(git('log', '-1', '--format=%an%n%s', 'main')).toBe('Editor Tester\nRestore feature: Loyalty points');
    git('fsck', '--strict');
    const read = await call(editor, 'specbase_read_feature', { featureId, mode: 'full' });
    expect(read.data.content).toBe('# Loyalty points\n\nShoppers earn zebracorn points.\n');
    const requirements = (await call(editor, 'specbase_list_requirements', { featureId })).data.items as {
      id: string;
    }[];
    expect(requirements.map((r) => r.id).sort()).toEqual([...requirementIds].sort());
    expect(
      (await call(editor, 'specbase_read_acceptance_criterion', { acceptanceCriterionId: criterionId })).data.parentId,
    ).toBe(requirementIds[0]);
    expect(await found('zebracorn')).toContain(featureId);
    const principal = (await h.services.control.members.principal(h.orgId, h.users.editor.user.id))!;
    const history = await h.services.specs.history({ principal }, featureId);
    expect(history.map((e) => e.verb)).toEqual(['restore', 'delete', 'create']);
    // Both command-line changes are in the audit log, each with its commit.
    const audited = await h.services.control.audit.list({ orgId: h.orgId, userId: h.users.editor.user.id, limit: 20 });
    const changes = audited
      .filter((e) => e.kind === 'cli' && e.artifactId === featureId)
      .map((e) => [e.action, e.commit]);
    expect(changes).toEqual([
      ['cli.restore_deleted', done.out.commit],
      ['cli.delete', before],
    ]);
    expect(
      await call(editor, 'specbase_edit_feature', {
        featureId,
        patch: '@@\n-Shoppers earn zebracorn points.\n+Shoppers earn points.\n',
      }),
    ).toBeTruthy();
  });

  it('deletes a leaf without --recursive, and a restored artifact is gone from the deleted list', async () => {
    const principal = (await h.services.control.members.principal(h.orgId, h.users.editor.user.id))!;
    expect((await h.services.specs.listDeleted({ principal })).map((d) => d.id)).not.toContain(featureId);
    const done = await cli('editor', 'delete', '--id', criterionId);
    expect(done.out.descendants).toEqual([]);
    const listed = await h.services.specs.listDeleted({ principal });
    expect(listed[0]).toMatchObject({
      id: criterionId,
      type: 'acceptance_criterion',
      deletedBy: { email: 'editor@example.com' },
      descendants: 0,
    });
    git('fsck', '--strict');
  });
});
