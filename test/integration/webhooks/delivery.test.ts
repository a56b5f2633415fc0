import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/types.js';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { selfSignedCertificate, type SelfSigned } from '../https/certificate.js';
import { waitUntil } from '../replicas/cluster.js';
import { callTool, git, mcpClient } from '../web/support.js';
import { startReceiver, type Receiver } from './receiver.js';

let cert: SelfSigned;
let receiver: Receiver;
let h: Harness;
let assistant: Client;
let owner: Actor;
let featureId: string;
let requirementId: string;

async function specbase(...args: string[]): Promise<Record<string, any>> {
  const { stdout } = await runCli([...args, '--json', '--data-dir', h.dataDir], {
    ...process.env,
    SPECBASE_LOG_LEVEL: 'silent',
    SPECBASE_BASE_URL: h.baseUrl,
    SPECBASE_WEBHOOK_CA_FILE: cert.certFile,
    SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST: `127.0.0.1:${receiver.port}`,
  });
  return JSON.parse(stdout) as Record<string, any>;
}

/** Adds an endpoint through the CLI and gives the receiver its secret. */
async function addHook(hook: string, events: string, workspaces: string): Promise<string> {
  const added = await specbase(
    'webhook',
    'add',
    '--org',
    h.orgId,
    '--url',
    receiver.url(hook),
    '--events',
    events,
    '--workspaces',
    workspaces,
  );
  receiver.secrets.set(hook, added.secret);
  return added.webhook.id as string;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
const edit = async (id: string, line: string) => {
  const current = (await callTool(assistant, 'specbase_read_requirement', { requirementId: id, mode: 'full' }))
    .content as string;
  return callTool(assistant, 'specbase_edit_requirement', {
    requirementId: id,
    patch: `@@\n ${current.split('\n')[0]}\n+\n+${line}\n`,
  });
};

beforeAll(async () => {
  cert = await selfSignedCertificate();
  receiver = await startReceiver(cert);
  h = await startHarness({
    env: {
      SPECBASE_WEBHOOK_CA_FILE: cert.certFile,
      SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST: `127.0.0.1:${receiver.port}`,
      SPECBASE_WEBHOOK_RETRY_SECONDS: '0.3',
    },
  });
  assistant = await mcpClient(h.baseUrl, h.orgId, h.users.owner.token, 'Claude Test');
  const caps = await callTool(assistant, 'specbase_list_capabilities', { productId: h.productId });
  const capabilityId = (caps.items as { id: string }[])[0]!.id;
  featureId = ((await callTool(assistant, 'specbase_list_features', { capabilityId })).items as { id: string }[])[0]!
    .id;
  requirementId = (
    (await callTool(assistant, 'specbase_list_requirements', { featureId })).items as { id: string }[]
  )[0]!.id;
  owner = { principal: (await h.services.control.members.principal(h.orgId, h.users.owner.user.id))!, client: 'web' };
}, 60_000);

afterAll(async () => {
  await assistant?.close();
  await h?.close();
  await receiver?.stop().catch(() => undefined);
});

describe('webhooks, delivered to a local receiver that verifies every signature', () => {
  it('each change is one signed event naming the organization, artifact, commit, author and client', async () => {
    await addHook('all', 'create,edit,revert', 'all');
    const created = await callTool(assistant, 'specbase_create_requirement', { featureId, title: 'Offline checkout' });
    const edited = await edit(created.id as string, 'Works without a network.');
    const reverted = await h.services.specs.revert(owner, created.id as string, edited.version as string);
    await waitUntil(
      async () => receiver.of('all').length >= 3,
      15_000,
      () => `received ${JSON.stringify(receiver.received)}`,
    );
    await settle();
    const events = receiver.of('all');
    expect(events.map((e) => e.type)).toEqual(['artifact.create', 'artifact.edit', 'artifact.revert']);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(events.map((e) => e.data.commit)).toEqual([created.version, edited.version, reverted.version]);
    expect(git(h.gitdir, 'rev-parse', 'main').trim()).toBe(reverted.version);
    expect(events[1]!.data).toEqual({
      organization: { id: h.orgId, name: expect.any(String) },
      artifact: {
        id: created.id,
        type: 'requirement',
        title: 'Offline checkout',
        url: `${h.baseUrl}/o/${h.orgId}/a/${created.id}`,
        workspaceId: h.defaultWorkspaceId,
      },
      commit: edited.version,
      author: { name: h.users.owner.user.name, email: h.users.owner.user.email },
      client: 'Claude Test',
    });
    expect(events[2]!.data.client).toBe('web');
    expect(receiver.rejected).toEqual([]);
  });

  it('a change request is announced as it opens, changes and merges; merged commits as artifact events, by their authors', async () => {
    await addHook('review', 'change_request,create', 'all');
    const changeRequests = h.services.changeRequests;
    const opened = await changeRequests.changeRequests.open(owner, { title: 'Gift cards' });
    const onBranch = changeRequests.specsOn(opened.number);
    const created = await onBranch.create(owner, 'requirement', { parentId: featureId, title: 'Gift cards' });
    await changeRequests.changeRequests.updated(owner, opened.number, created.id);
    const merged = await changeRequests.changeRequests.merge(owner, opened.number);
    await waitUntil(
      async () => receiver.of('review').length >= 4,
      15_000,
      () => `received ${JSON.stringify(receiver.of('review'))}`,
    );
    await settle();
    const events = receiver.of('review');
    // One artifact.create, at the merge: nothing on a change request is announced before.
    expect(events.map((e) => e.type)).toEqual([
      'change_request.opened',
      'change_request.updated',
      'artifact.create',
      'change_request.merged',
    ]);
    expect(events[2]!.data).toMatchObject({ artifact: { id: created.id }, commit: merged.commit });
    expect(events[3]!.data.changeRequest).toEqual({
      number: opened.number,
      title: 'Gift cards',
      state: 'merged',
      branch: `cr/${opened.number}`,
      url: `${h.baseUrl}/o/${h.orgId}/cr/${opened.number}`,
    });
    expect(events[3]!.data.workspaceIds).toEqual([h.defaultWorkspaceId]);
    expect(receiver.rejected).toEqual([]);
  });

  it('a move, a delete and a restore are events too, one per artifact the commit changed', async () => {
    await addHook('restructure', 'move,delete,restore', 'all');
    const created = await callTool(assistant, 'specbase_create_requirement', { featureId, title: 'Gift wrapping' });
    const criterion = await callTool(assistant, 'specbase_create_acceptance_criterion', {
      requirementId: created.id,
      title: 'Wrapped at checkout',
    });
    const capabilityId = (
      (await callTool(assistant, 'specbase_list_capabilities', { productId: h.productId })).items as { id: string }[]
    )[0]!.id;
    const features = (await callTool(assistant, 'specbase_list_features', { capabilityId })).items as { id: string }[];
    const otherFeatureId = features.find((f) => f.id !== featureId)!.id;
    const moved = await h.services.specs.move(owner, created.id as string, otherFeatureId);
    const deleted = await h.services.specs.delete(owner, created.id as string, { recursive: true });
    const restored = await h.services.specs.restoreDeleted(owner, created.id as string);
    await waitUntil(
      async () => receiver.of('restructure').length >= 5,
      15_000,
      () => `received ${JSON.stringify(receiver.of('restructure'))}`,
    );
    await settle();
    const events = receiver.of('restructure');
    expect(events.map((e) => [e.type, e.data.artifact.id, e.data.commit])).toEqual([
      // Within one workspace a move rewrites only the moved artifact's file (its parent).
      ['artifact.move', created.id, moved.commit],
      ['artifact.delete', created.id, deleted.commit],
      ['artifact.delete', criterion.id, deleted.commit],
      ['artifact.restore', created.id, restored.commit],
      ['artifact.restore', criterion.id, restored.commit],
    ]);
    expect(git(h.gitdir, 'log', '-3', '--format=%s', 'main').trim().split('\n')).toEqual([
      'Restore requirement: Gift wrapping',
      'Delete requirement: Gift wrapping',
      'Move requirement: Gift wrapping',
    ]);
    expect(receiver.rejected).toEqual([]);
  });

  it('a receiver that is down gets the event after a retry, once, with the same webhook-id; every attempt is logged', async () => {
    const hookId = (await h.services.control.webhooks.list(h.orgId)).find((w) => w.url === receiver.url('all'))!.id;
    await receiver.stop();
    const before = receiver.of('all').length;
    const edited = await edit(requirementId, 'Edited while the receiver was down.');
    await waitUntil(
      async () => (await h.services.control.webhooks.attempts(h.orgId, hookId, 5)).some((a) => a.state === 'retrying'),
      10_000,
      () => 'no failed attempt logged',
    );
    const failed = (await h.services.control.webhooks.attempts(h.orgId, hookId, 1))[0]!;
    expect(failed).toMatchObject({ ok: false, responseCode: null, kind: 'edit', state: 'retrying' });
    // The rule, not the system's words (ECONNREFUSED, the address): those go to the server log.
    expect(failed.error).toBe('the host could not be reached');
    await receiver.start();
    await waitUntil(
      async () => receiver.of('all').length > before,
      15_000,
      () => 'never delivered after the receiver came back',
    );
    await settle();
    const arrived = receiver.of('all').slice(before);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]!.data.commit).toBe(edited.version);
    const attempts = (await h.services.control.webhooks.attempts(h.orgId, hookId, 50)).filter(
      (a) => a.messageId === arrived[0]!.id,
    );
    expect(attempts[0]).toMatchObject({ ok: true, responseCode: 204, state: 'delivered' });
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.slice(1).every((a) => !a.ok && a.state === 'retrying')).toBe(true);
    expect(receiver.rejected).toEqual([]);
  });

  it('a webhook scoped to one workspace never hears of another', async () => {
    await addHook('leadership', 'create,edit', h.restrictedWorkspaceId);
    const folder = await h.services.specs.createFolder(owner, {
      name: 'Board notes',
      workspaceId: h.restrictedWorkspaceId,
    });
    const page = await callTool(assistant, 'specbase_create_page', { title: 'Quarterly plan', folderId: folder.id });
    const before = receiver.of('all').length;
    await edit(requirementId, 'An edit in the default workspace.');
    await waitUntil(
      async () => receiver.of('all').length >= before + 1 && receiver.of('leadership').length >= 1,
      15_000,
      () => 'events missing',
    );
    await settle();
    const heard = receiver.of('leadership');
    expect(heard.map((e) => [e.type, e.data.artifact.id, e.data.artifact.workspaceId])).toEqual([
      ['artifact.create', page.id, h.restrictedWorkspaceId],
    ]);
    expect(receiver.rejected).toEqual([]);
  });

  it('--workspaces all stays all: a workspace made later with the CLI is heard of too', async () => {
    const hookId = await addHook('everywhere', 'create', 'all');
    const made = await specbase('workspace', 'create', '--org', h.orgId, '--name', 'Made after the webhook');
    const folder = await h.services.specs.createFolder(owner, { name: 'Later notes', workspaceId: made.workspaceId });
    const page = await callTool(assistant, 'specbase_create_page', { title: 'Written later', folderId: folder.id });
    await waitUntil(
      async () => receiver.of('everywhere').length >= 1,
      15_000,
      () => 'no event for the workspace made later',
    );
    await settle();
    expect(receiver.of('everywhere').map((e) => [e.type, e.data.artifact.id, e.data.artifact.workspaceId])).toEqual([
      ['artifact.create', page.id, made.workspaceId],
    ]);
    const listed = await specbase('webhook', 'list', '--org', h.orgId);
    expect(listed.webhooks.find((w: any) => w.id === hookId).workspaceIds).toBe('all');
    expect(await specbase('webhook', 'remove', '--org', h.orgId, '--id', hookId)).toEqual({ removed: hookId });
    expect(receiver.rejected).toEqual([]);
  });

  it('specbase webhook test sends a signed test event; list shows the attempts; an address inside is refused when added', async () => {
    const hookId = (await h.services.control.webhooks.list(h.orgId)).find(
      (w) => w.url === receiver.url('leadership'),
    )!.id;
    const tested = await specbase('webhook', 'test', '--org', h.orgId, '--id', hookId);
    expect(tested.attempt).toMatchObject({ ok: true, responseCode: 204, kind: 'test', state: 'delivered' });
    expect(receiver.of('leadership').at(-1)).toMatchObject({ type: 'webhook.test', id: tested.attempt.messageId });

    const listed = await specbase('webhook', 'list', '--org', h.orgId);
    const leadership = listed.webhooks.find((w: any) => w.id === hookId);
    expect(leadership).toMatchObject({
      events: ['create', 'edit'],
      workspaceIds: [h.restrictedWorkspaceId],
      disabledAt: null,
    });
    expect(leadership.attempts[0]).toMatchObject({ kind: 'test', ok: true });
    expect(JSON.stringify(listed)).not.toContain('whsec_');

    // Pointing inside is refused when added, naming the rule only: an address in a refused
    // range, or a name that resolves into one (localhost, here, without the development setting).
    for (const url of ['https://10.1.2.3/hook', 'https://169.254.169.254/latest', 'https://localhost:1/hook']) {
      const refused = specbase(
        'webhook',
        'add',
        '--org',
        h.orgId,
        '--url',
        url,
        '--events',
        'edit',
        '--workspaces',
        'all',
      );
      await expect(refused, url).rejects.toThrow(/the address is not allowed: private, loopback or link-local/);
      await expect(refused, url).rejects.not.toThrow(/resolves|127\.0\.0\.1/);
    }
    await expect(
      specbase(
        'webhook',
        'add',
        '--org',
        h.orgId,
        '--url',
        'http://example.com/hook',
        '--events',
        'edit',
        '--workspaces',
        'all',
      ),
    ).rejects.toThrow(/https/);
  });

  it('a redirect is a failed attempt, never followed; a large answer is read no further than needed', async () => {
    const redirecting = await addHook('redirecting', 'edit', 'all');
    receiver.answers.set('redirecting', { status: 302, headers: { Location: receiver.url('all') } });
    const refused = await specbase('webhook', 'test', '--org', h.orgId, '--id', redirecting);
    expect(refused.attempt).toMatchObject({ ok: false, responseCode: 302, error: 'redirects are not followed' });
    const talkative = await addHook('talkative', 'edit', 'all');
    receiver.answers.set('talkative', { status: 200, body: 'x'.repeat(1024 * 1024) });
    expect((await specbase('webhook', 'test', '--org', h.orgId, '--id', talkative)).attempt).toMatchObject({
      ok: true,
      responseCode: 200,
    });
    expect(receiver.of('all').filter((e) => e.type === 'webhook.test')).toEqual([]);
    for (const id of [redirecting, talkative]) await specbase('webhook', 'remove', '--org', h.orgId, '--id', id);
  });
});
