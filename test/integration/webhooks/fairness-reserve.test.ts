import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionOrganization } from '../../../src/app/provision.js';
import type { Actor } from '../../../src/domain/types.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { waitUntil } from '../replicas/cluster.js';
import { startReceiver, type Receiver } from './receiver.js';
import { startSilent, type Silent } from './silent.js';

let receiver: Receiver;
let silent: Silent;
let h: Harness;

beforeAll(async () => {
  receiver = await startReceiver();
  silent = await startSilent();
  // 8 slots: one organization takes at most 4, and the last 2 are kept for organizations holding none.
  h = await startHarness({ env: { SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on', SPECBASE_WEBHOOK_CONCURRENCY: '8' } });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await silent?.close();
  await receiver?.stop().catch(() => undefined);
});

describe('webhook slots kept for organizations holding none', () => {
  it('two organizations with silent endpoints fill what they may, and a third still gets its event at once', async () => {
    const owner = h.users.owner.user;
    for (const name of ['Silent B', 'Silent C']) {
      const { org, defaultWorkspace } = await provisionOrganization(h.services, { name, owner });
      for (let i = 0; i < 5; i++)
        await h.services.webhooks.add({
          orgId: org.id,
          url: `http://127.0.0.1:${silent.port}/${org.id}/${i}`,
          events: ['create'],
          workspaceIds: [defaultWorkspace.id],
          createdBy: null,
        });
      const actor: Actor = {
        principal: (await h.services.control.members.principal(org.id, owner.id))!,
        client: 'web',
      };
      await h.services.specs.create(actor, 'page', { title: `${name} commits` });
    }
    await waitUntil(
      async () => silent.open === 6,
      10_000,
      () => `the silent organizations hold ${silent.open} requests`,
    );
    const { secret } = await h.services.webhooks.add({
      orgId: h.orgId,
      url: `http://localhost:${receiver.port}/hooks/a`,
      events: ['create'],
      workspaceIds: [h.defaultWorkspaceId],
      createdBy: null,
    });
    receiver.secrets.set('a', secret);
    const ownerA: Actor = {
      principal: (await h.services.control.members.principal(h.orgId, owner.id))!,
      client: 'web',
    };
    const committed = Date.now();
    await h.services.specs.create(ownerA, 'page', { title: 'A needs to know' });
    await waitUntil(
      async () => receiver.of('a').length === 1,
      5_000,
      () => `A's event not delivered within 5 s of its commit`,
    );
    expect(Date.now() - committed).toBeLessThan(5_000);
    // 4 + 2 of 8: neither silent organization ever took the last two slots.
    expect(silent.mostOpen).toBe(6);
    expect(receiver.rejected).toEqual([]);
  });
});
