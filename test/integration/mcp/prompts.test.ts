import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, ListItemView } from '../../../src/domain/types.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { connect } from './clients.js';
import { connectModern } from './modern-clients.js';

let h: Harness;
let owner: Actor;
let capability: ListItemView;
let feature: ListItemView;
let requirement: ListItemView;

beforeAll(async () => {
  h = await startHarness();
  owner = { principal: (await h.services.control.members.principal(h.orgId, h.users.owner.user.id))! };
  const { specs } = h.services;
  capability = (await specs.listChildren(owner, 'capability', h.productId))[0]!;
  feature = (await specs.listChildren(owner, 'feature', capability.id))[0]!;
  requirement = (await specs.listChildren(owner, 'requirement', feature.id))[0]!;
});
afterAll(async () => {
  await h?.close();
});

type AnyClient = LegacyClient | ModernClient;
const ERAS: readonly [string, (persona: Persona) => Promise<AnyClient>][] = [
  ['2025', (persona) => connect(h, persona)],
  ['2026-07-28', (persona) => connectModern(h, persona)],
];

describe.each(ERAS)('prompts in the %s era', (_era, open) => {
  it('lists the three slash commands with their arguments', async () => {
    const client = await open('owner');
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual([
        'draft_feature',
        'review_feature',
        'write_acceptance_criteria',
      ]);
      expect(prompts[0]!.arguments).toEqual([
        expect.objectContaining({ name: 'capabilityId', required: true }),
        expect.objectContaining({ name: 'idea', required: false }),
      ]);
    } finally {
      await client.close();
    }
  });

  it.each([
    [
      'draft_feature',
      () => ({ capabilityId: capability.id, idea: 'Saved baskets' }),
      () => capability,
      'specbase_create_feature',
    ],
    ['review_feature', () => ({ featureId: feature.id }), () => feature, 'contradictions'],
    [
      'write_acceptance_criteria',
      () => ({ requirementId: requirement.id }),
      () => requirement,
      'specbase_create_acceptance_criterion',
    ],
  ] as const)('%s embeds its artifact and says what to do', async (name, args, artifact, expected) => {
    const client = await open('owner');
    try {
      const result = await client.getPrompt({ name, arguments: args() });
      const [instruction, embedded] = result.messages as {
        role: string;
        content: { type: string; text?: string; resource?: { uri: string; text: string } };
      }[];
      expect(instruction!.content.text).toContain(artifact().title);
      expect(instruction!.content.text).toContain(expected);
      expect(embedded!.content.resource!.uri).toBe(`specbase://o/${h.orgId}/artifact/${artifact().id}`);
      const full = await h.services.specs.readAny(owner, artifact().id, 'full');
      expect(embedded!.content.resource!.text).toBe(full.content);
    } finally {
      await client.close();
    }
  });

  it('completes an artifact argument by title, among artifacts of its type', async () => {
    const client = await open('owner');
    try {
      const typed = capability.title.slice(0, 4).toLowerCase();
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'draft_feature' },
        argument: { name: 'capabilityId', value: typed },
      });
      const capabilities = (await h.services.specs.listReadable(owner)).filter((item) => item.type === 'capability');
      const expected = capabilities.filter((item) => item.title.toLowerCase().includes(typed)).map((item) => item.id);
      expect(completion.completion.values.sort()).toEqual(expected.sort());
      expect(completion.completion.values).toContain(capability.id);
    } finally {
      await client.close();
    }
  });

  it('refuses an unknown prompt and an artifact of another type', async () => {
    const client = await open('owner');
    try {
      await expect(client.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow(/unknown prompt "nope"/);
      await expect(
        client.getPrompt({ name: 'review_feature', arguments: { featureId: capability.id } }),
      ).rejects.toThrow(/featureId: feature not found/);
      await expect(client.getPrompt({ name: 'review_feature', arguments: {} })).rejects.toThrow(
        /review_feature needs featureId/,
      );
    } finally {
      await client.close();
    }
  });
});
