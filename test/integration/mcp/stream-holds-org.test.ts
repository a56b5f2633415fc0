import { afterAll, beforeAll, expect, it } from 'vitest';
import { provisionOrganization } from '../../../src/app/provision.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect } from './clients.js';
import { connectModern } from './modern-clients.js';

/** With one organization held open at most, a legacy SSE stream keeps its organization open while it lasts. */
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { SPECBASE_MAX_OPEN_ORGS: '1' } });
});

afterAll(async () => {
  await h?.close();
});

it('keeps the organization of an SSE stream open while others are used, and lets it close once the stream ends', async () => {
  const { store, control } = h.services;
  const stream = await connect(h, 'owner', 'sse');
  await call(stream, 'specbase_read_product');
  expect(store.isOpen(h.orgId)).toBe(true);
  const owner = h.users.owner.user;
  const others: string[] = [];
  for (let i = 0; i < 3; i++)
    others.push((await provisionOrganization({ control, store }, { name: `Other ${i}`, owner })).org.id);
  for (const orgId of others) await store.catalog(orgId);
  expect(store.isOpen(h.orgId)).toBe(true);
  expect(store.openOrganizations()).toHaveLength(1);

  await stream.close();
  await expect
    .poll(
      async () => {
        await store.catalog(others[0]!);
        return store.isOpen(h.orgId);
      },
      { timeout: 5_000 },
    )
    .toBe(false);
  expect(store.openOrganizations()).toEqual([others[0]]);
});

it.each([
  ['a 2025 session subscribed to a resource', 'legacy'],
  ['a 2026-07-28 listen stream', 'modern'],
] as const)(
  'keeps the organization of %s open while others are used, and lets it close once it ends',
  async (_what, era) => {
    const { store, control } = h.services;
    const product = `specbase://o/${h.orgId}/artifact/${h.productId}`;
    let end: () => Promise<void>;
    if (era === 'legacy') {
      const session = await connect(h, 'owner');
      await session.subscribeResource({ uri: product });
      end = async () => {
        await session.unsubscribeResource({ uri: product });
        await session.close();
      };
    } else {
      const modern = await connectModern(h, 'owner');
      const listening = await modern.listen({ resourceSubscriptions: [product] });
      end = async () => {
        await listening.close();
        await modern.close();
      };
    }
    const owner = h.users.owner.user;
    const others: string[] = [];
    for (let i = 0; i < 2; i++)
      others.push((await provisionOrganization({ control, store }, { name: `Subscribed ${era} ${i}`, owner })).org.id);
    for (const orgId of others) {
      await store.catalog(orgId);
      expect(store.isOpen(h.orgId)).toBe(true);
    }
    expect(store.openOrganizations()).toEqual([h.orgId]);

    await end();
    await expect
      .poll(
        async () => {
          await store.catalog(others[0]!);
          return store.isOpen(h.orgId);
        },
        { timeout: 5_000 },
      )
      .toBe(false);
  },
);
