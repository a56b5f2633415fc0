import { Ajv } from 'ajv';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/tools/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect, TRANSPORTS } from './clients.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const EXPECTED_NAMES = buildCatalog()
  .listed.map((tool) => tool.name)
  .sort();

describe.each(TRANSPORTS)('over %s', (kind) => {
  it('lists exactly the 31 tools and serves a read', async () => {
    const client = await connect(h, 'owner', kind);
    try {
      expect(client.getServerVersion()?.name).toBe('specbase');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(EXPECTED_NAMES);
      expect(EXPECTED_NAMES).toHaveLength(31);
      const { data } = await call(client, 'specbase_read_product');
      expect(data.id).toBe(h.productId);
      expect(data.truncated).toBe(true);
    } finally {
      await client.close();
    }
  });
});

/** The body's first line changed: a patch every created artifact accepts. */
function retitlePatch(content: string, newTitle: string): string {
  const [first, second] = content.split('\n');
  return ['@@', `-${first}`, `+# ${newTitle}`, ...(second ? [` ${second}`] : [])].join('\n') + '\n';
}

describe('every tool', () => {
  let client: Client;
  let tools: Map<string, Tool>;
  const ajv = new Ajv({ strict: false });
  const called = new Set<string>();

  beforeAll(async () => {
    client = await connect(h, 'owner', 'streamable');
    tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  });
  afterAll(async () => {
    await client?.close();
  });

  /** Calls a tool and checks its structured content against the outputSchema it published. */
  async function run(name: string, args: Record<string, unknown> = {}) {
    const result = await call(client, name, args);
    const validate = ajv.compile(tools.get(name)!.outputSchema!);
    expect(validate(result.data), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    expect(result.text.length, name).toBeGreaterThan(0);
    called.add(name);
    return result;
  }

  it('succeeds for all 31, each result matching its output schema', async () => {
    const search = await run('specbase_search', { query: 'substitution', limit: 5 });
    expect(search.data.results.length).toBeGreaterThan(0);
    expect(search.data.results.length).toBeLessThanOrEqual(5);
    await run('specbase_search', { query: 'substitution', artifactTypes: ['requirement'] });

    const productId = (await run('specbase_read_product', { mode: 'full' })).data.id as string;
    const capabilityId = (await run('specbase_list_capabilities', { productId })).data.items[0].id as string;
    await run('specbase_read_capability', { capabilityId });
    const featureId = (await run('specbase_list_features', { capabilityId })).data.items[0].id as string;
    await run('specbase_read_feature', { featureId, mode: 'full' });
    const requirementId = (await run('specbase_list_requirements', { featureId })).data.items[0].id as string;
    const requirement = await run('specbase_read_requirement', { requirementId });
    expect(requirement.data.requirementType).toMatch(/^[A-Z_]+$/);
    const criterionId = (await run('specbase_list_acceptance_criteria', { requirementId })).data.items[0].id as string;
    await run('specbase_read_acceptance_criterion', { acceptanceCriterionId: criterionId });
    const userTypeId = (await run('specbase_list_user_types', { productId })).data.items[0].id as string;
    await run('specbase_read_user_type', { userTypeId });
    const coreEntityId = (await run('specbase_list_core_entities', { productId })).data.items[0].id as string;
    await run('specbase_read_core_entity', { coreEntityId });
    const folders = (await run('specbase_list_folders')).data.folders as { id: string; pageCount: number }[];
    const folder = folders.find((f) => f.pageCount > 0)!;
    await run('specbase_list_folders', { parentFolderId: folder.id });
    expect((await run('specbase_list_pages', { folderId: folder.id })).data.items).toHaveLength(folder.pageCount);
    const pageId = (await run('specbase_list_pages')).data.items[0].id as string;
    await run('specbase_read_page', { pageId });

    const created = {
      capability: await run('specbase_create_capability', { productId, title: 'Loyalty' }),
      feature: await run('specbase_create_feature', { capabilityId }),
      requirement: await run('specbase_create_requirement', {
        featureId,
        type: 'CONSTRAINT',
        title: 'At most 3 vouchers',
      }),
      acceptance_criterion: await run('specbase_create_acceptance_criterion', { requirementId }),
      user_type: await run('specbase_create_user_type', { productId }),
      core_entity: await run('specbase_create_core_entity', { productId }),
      page: await run('specbase_create_page', { folderId: folder.id, title: 'Retro notes' }),
    };
    await run('specbase_create_page', {});
    expect(created.requirement.data.requirementType).toBe('CONSTRAINT');
    expect(created.feature.data.title).toBe('Untitled feature');
    expect(created.acceptance_criterion.data.content).toMatch(/Given/);
    expect(created.page.data.parentId).toBe(folder.id);

    const idParams: Record<string, string> = {
      capability: 'capabilityId',
      feature: 'featureId',
      requirement: 'requirementId',
      acceptance_criterion: 'acceptanceCriterionId',
      user_type: 'userTypeId',
      core_entity: 'coreEntityId',
      page: 'pageId',
    };
    for (const [type, result] of Object.entries(created)) {
      const patch = retitlePatch(result.data.content as string, `Edited ${type}`);
      const edit = await run(`specbase_edit_${type}`, {
        [idParams[type]!]: result.data.id,
        patch,
        baseVersion: result.data.version,
      });
      expect(edit.data.title, type).toBe(`Edited ${type}`);
      expect(edit.data.version).not.toBe(result.data.version);
      expect(edit.data.added).toBe(1);
    }
    expect([...called].sort()).toEqual(EXPECTED_NAMES);
  });

  it('records every call in the audit log with tool, artifact, commit, client and outcome', async () => {
    const { data } = await run('specbase_create_core_entity', { productId: h.productId, title: 'Audited' });
    const entries = await h.services.control.audit.list({ orgId: h.orgId, limit: 500 });
    const entry = entries.find((e) => e.action === 'specbase_create_core_entity' && e.artifactId === data.id);
    expect(entry).toMatchObject({
      kind: 'tool_call',
      userId: h.users.owner.user.id,
      commit: data.version,
      client: 'specbase-test-client',
      outcome: 'ok',
    });
    expect(entry!.durationMs).toBeGreaterThanOrEqual(0);
    const audited = new Set(entries.filter((e) => e.kind === 'tool_call').map((e) => e.action));
    for (const name of called) expect(audited.has(name), name).toBe(true);
  });
});
