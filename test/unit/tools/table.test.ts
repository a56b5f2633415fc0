import { describe, expect, it } from 'vitest';
import {
  APP_URIS,
  buildCatalog,
  FULL_CONNECTION,
  isReadOnly,
  TOOLS_LIST_BUDGET_BYTES,
} from '../../../src/tools/index.js';

const catalog = buildCatalog();
const byName = new Map(catalog.listed.map((tool) => [tool.name, tool]));

const TYPES = [
  'product',
  'capability',
  'feature',
  'requirement',
  'acceptance_criterion',
  'user_type',
  'core_entity',
  'page',
];
const MODE = { type: 'string', enum: ['concise', 'full'], default: 'concise' };
const ID = { type: 'string' };

/** The specification's parameter tables, written out by hand so the generator is checked against them. */
const EXPECTED: Record<string, { params: Record<string, object>; required: string[] }> = {
  specbase_search: {
    params: {
      query: { type: 'string' },
      artifactTypes: { type: 'array', items: { type: 'string', enum: TYPES } },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    },
    required: ['query'],
  },
  specbase_read_product: { params: { mode: MODE }, required: [] },
  specbase_list_pages: { params: { folderId: ID }, required: [] },
  specbase_list_folders: { params: { parentFolderId: ID }, required: [] },
  specbase_create_page: {
    params: { folderId: ID, title: { type: 'string' }, content: { type: 'string' } },
    required: [],
  },
  specbase_create_requirement: {
    params: {
      featureId: ID,
      type: {
        type: 'string',
        enum: ['FUNCTIONAL', 'NON_FUNCTIONAL', 'CONSTRAINT', 'BUSINESS_RULE'],
        default: 'FUNCTIONAL',
      },
      title: { type: 'string' },
      content: { type: 'string' },
    },
    required: ['featureId'],
  },
};
const readable: [string, string][] = [
  ['capability', 'capabilityId'],
  ['feature', 'featureId'],
  ['requirement', 'requirementId'],
  ['acceptance_criterion', 'acceptanceCriterionId'],
  ['user_type', 'userTypeId'],
  ['core_entity', 'coreEntityId'],
  ['page', 'pageId'],
];
for (const [singular, idParam] of readable) {
  EXPECTED[`specbase_read_${singular}`] = { params: { [idParam]: ID, mode: MODE }, required: [idParam] };
  EXPECTED[`specbase_edit_${singular}`] = {
    params: { [idParam]: ID, patch: { type: 'string' }, baseVersion: { type: 'string' } },
    required: [idParam, 'patch'],
  };
}
const lists: [string, string][] = [
  ['capabilities', 'productId'],
  ['features', 'capabilityId'],
  ['requirements', 'featureId'],
  ['acceptance_criteria', 'requirementId'],
  ['user_types', 'productId'],
  ['core_entities', 'productId'],
];
for (const [plural, parentId] of lists)
  EXPECTED[`specbase_list_${plural}`] = { params: { [parentId]: ID }, required: [parentId] };
const creates: [string, string][] = [
  ['capability', 'productId'],
  ['feature', 'capabilityId'],
  ['acceptance_criterion', 'requirementId'],
  ['user_type', 'productId'],
  ['core_entity', 'productId'],
];
for (const [singular, parentId] of creates) {
  EXPECTED[`specbase_create_${singular}`] = {
    params: { [parentId]: ID, title: { type: 'string' }, content: { type: 'string' } },
    required: [parentId],
  };
}

describe('the tool table', () => {
  it('has exactly the 31 specified names, each once', () => {
    const names = catalog.listed.map((tool) => tool.name);
    expect(names).toHaveLength(31);
    expect(new Set(names).size).toBe(31);
    expect([...names].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s takes exactly the specified parameters', (name, expected) => {
    const schema = byName.get(name)!.inputSchema as { properties: Record<string, object>; required?: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(expected.params).sort());
    for (const [param, shape] of Object.entries(expected.params)) {
      expect(schema.properties[param], `${name}.${param}`).toMatchObject(shape);
    }
    expect([...(schema.required ?? [])].sort()).toEqual([...expected.required].sort());
  });

  it('marks exactly search, read and list tools read-only, and nothing destructive', () => {
    for (const tool of catalog.listed) {
      const readOnly = /^specbase_(search|read_|list_)/.test(tool.name);
      expect(tool.annotations?.readOnlyHint ?? false, tool.name).toBe(readOnly);
      expect(tool.annotations?.destructiveHint, tool.name).toBe(readOnly ? undefined : false);
      expect(tool.annotations?.title, tool.name).toBeTruthy();
      expect(isReadOnly(catalog.byName.get(tool.name)!.kind)).toBe(readOnly);
    }
  });

  it('gives every tool an output schema and a description of some substance', () => {
    for (const tool of catalog.listed) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description!.length, tool.name).toBeGreaterThan(35);
      expect(JSON.stringify(tool)).not.toContain('$schema');
    }
  });

  it('describes every parameter; every id names its artifact type and a tool that hands out such ids', () => {
    const typeNames = [
      'Product',
      'Capability',
      'Feature',
      'Requirement',
      'Acceptance Criterion',
      'User Type',
      'Core Entity',
      'Page',
      'Folder',
    ];
    let ids = 0;
    for (const tool of catalog.listed) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<
        string,
        { description?: string; format?: string; type?: string }
      >;
      for (const [name, schema] of Object.entries(properties)) {
        expect(schema.description, `${tool.name}.${name}`).toBeTruthy();
        if (!name.endsWith('Id')) continue;
        ids++;
        expect(schema, `${tool.name}.${name}`).toMatchObject({ type: 'string' });
        const [, typeName, source] = /^(.+) id \((specbase_\w+)\)$/.exec(schema.description!) ?? [];
        expect(typeNames, `${tool.name}.${name}: ${schema.description}`).toContain(typeName);
        expect(byName.has(source!), `${tool.name}.${name} names ${source}`).toBe(true);
        expect(name.toLowerCase()).toContain(typeName!.replace(' ', '').toLowerCase());
      }
    }
    expect(ids).toBe(29);
  });

  it('states the title limits on every create tool', () => {
    for (const tool of catalog.listed.filter((t) => t.name.startsWith('specbase_create_'))) {
      const title = (tool.inputSchema.properties as Record<string, object>).title;
      expect(title, tool.name).toEqual({ type: 'string', maxLength: 200, description: 'One line' });
    }
  });

  it('writes articles and sentences a reader expects', () => {
    const all = catalog.listed.map((tool) => tool.description).join('\n');
    expect(all).not.toMatch(/\ban (User|[BCDFGHJKLMNPQRSTVWXYZ])/);
    expect(all).not.toMatch(/\ba (Acceptance|[AEIO][a-z])/);
    expect(byName.get('specbase_create_page')!.description).toBe(
      'Create a Page at root level or in folderId, empty, or with title as its heading; returns it in full. Link: [[Title]] or [text](url or specbase:// URI).',
    );
  });

  it('says in one sentence how to link on every create and edit tool', () => {
    const writing = catalog.listed.filter((t) => /^specbase_(create|edit)_/.test(t.name));
    expect(writing).toHaveLength(14);
    for (const tool of writing)
      expect(tool.description).toMatch(/ Link: \[\[Title\]\] or \[text\]\(url or specbase:\/\/ URI\)\.$/);
  });

  it('teaches the model how to write a patch on every edit tool', () => {
    for (const tool of catalog.listed.filter((t) => t.name.startsWith('specbase_edit_'))) {
      expect(tool.description).toContain('by a unified diff of its full text (mode "full")');
      expect(tool.description).toMatch(/@@\n .*\n-.*\n\+.*\n/);
    }
  });

  it('keeps the whole tools/list answer under 25 KB, with the MCP Apps metadata too', () => {
    const bytes = Buffer.byteLength(JSON.stringify({ tools: catalog.listed }), 'utf8');
    expect(bytes).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
    const withApps = Buffer.byteLength(JSON.stringify({ tools: catalog.listedFor(FULL_CONNECTION, true) }), 'utf8');
    expect(withApps).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
  });

  it('names the app of every read, create, edit and search result for clients that render apps, and lists the app-only tools last', () => {
    const withApps = catalog.listedFor(FULL_CONNECTION, true);
    const appOf = (name: string) =>
      /^specbase_(read|create)_/.test(name)
        ? APP_URIS.artifact
        : name.startsWith('specbase_edit_')
          ? APP_URIS.change
          : name === 'specbase_search'
            ? APP_URIS.search
            : undefined;
    for (const tool of withApps.slice(0, catalog.listed.length)) {
      const uri = appOf(tool.name);
      expect(tool._meta, tool.name).toEqual(uri ? { ui: { resourceUri: uri } } : undefined);
    }
    expect(withApps.slice(catalog.listed.length)).toEqual(
      ['specbase_app_artifact', 'specbase_app_change', 'specbase_app_places', 'specbase_app_revert'].map((name) => ({
        name,
        inputSchema: { type: 'object' },
        _meta: { ui: { visibility: ['app'] } },
      })),
    );
    expect(catalog.listed.every((tool) => tool._meta === undefined)).toBe(true);
  });

  it('offers the app-only tools as a connection allows: no revert when read-only, the apps of the chosen tools only', () => {
    const appTools = (connection: Parameters<typeof catalog.listedFor>[0]) =>
      catalog
        .listedFor(connection, true)
        .map((tool) => tool.name)
        .filter((name) => name.startsWith('specbase_app_'));
    expect(appTools({ readOnly: 'header' })).toEqual([
      'specbase_app_artifact',
      'specbase_app_change',
      'specbase_app_places',
    ]);
    expect(appTools({ readOnly: false, tools: new Set(['specbase_search']) })).toEqual([
      'specbase_app_artifact',
      'specbase_app_places',
    ]);
    expect(appTools({ readOnly: false, tools: new Set(['specbase_edit_page']) })).toEqual([
      'specbase_app_change',
      'specbase_app_revert',
    ]);
    expect(appTools({ readOnly: false, tools: new Set(['specbase_list_folders']) })).toEqual([]);
  });

  it('builds the tools/list answer once and hands out the same definitions', () => {
    expect(catalog.listed).toBe(catalog.listed);
    expect(Object.isFrozen(catalog.listed)).toBe(true);
  });

  it.each(catalog.listed.map((tool) => [tool.name, tool] as const))('%s schema snapshot', async (name, tool) => {
    await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(`./__snapshots__/tools/${name}.json`);
  });
});

describe('the manage tools', () => {
  const withManage = catalog.listedFor({ readOnly: false, optIn: new Set(['manage'] as const) });
  const manage = withManage.slice(catalog.listed.length);

  it('come only to a connection that asks for them, after the 31, and never to a read-only one', () => {
    expect(withManage.slice(0, catalog.listed.length)).toEqual(catalog.listed);
    expect(manage.map((tool) => tool.name)).toEqual([
      'specbase_delete_artifact',
      'specbase_restore_artifact',
      'specbase_move_artifact',
      'specbase_revert_change',
      'specbase_read_history',
    ]);
    const readOnly = catalog.listedFor({ readOnly: 'header', optIn: new Set(['manage'] as const) });
    expect(readOnly.some((tool) => manage.some((m) => m.name === tool.name))).toBe(false);
    expect(catalog.listedFor(FULL_CONNECTION).map((tool) => tool.name)).toHaveLength(31);
  });

  it('mark delete, move and revert destructive, history read-only, and what repeats harmlessly idempotent', () => {
    const hints = Object.fromEntries(manage.map((tool) => [tool.name, tool.annotations]));
    expect(hints.specbase_delete_artifact).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(hints.specbase_move_artifact).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(hints.specbase_revert_change).toMatchObject({ destructiveHint: true });
    expect(hints.specbase_revert_change!.idempotentHint).toBeUndefined();
    expect(hints.specbase_restore_artifact).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(hints.specbase_read_history).toMatchObject({ readOnlyHint: true });
  });

  it('describe every parameter', () => {
    for (const tool of manage) {
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
  });

  it.each(manage.map((tool) => [tool.name, tool] as const))('%s schema snapshot', async (name, tool) => {
    await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(`./__snapshots__/tools/${name}.json`);
  });
});
