import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionOrganization } from '../../../src/app/provision.js';
import type { Actor } from '../../../src/domain/index.js';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { orgContents } from '../../support/org-contents.js';

/** `specbase import` keeps links and names; `specbase export` then `import` gives the same organization back. */
let h: Harness;
/** The API reference of `dpkg -L nodejs`: 60-odd files linking to one another by relative paths and anchors. */
const NODE_API_DOCS = '/usr/share/doc/nodejs/api';
let work: string;
let owner: Actor;

const env = { ...process.env, SPECBASE_LOG_LEVEL: 'silent', SPECBASE_FSYNC: 'off' };
async function cli(...args: string[]) {
  try {
    const { stdout } = await runCli([...args, '--json', '--data-dir', h.dataDir], {
      ...env,
      SPECBASE_BASE_URL: h.baseUrl,
    });
    return { code: 0, out: JSON.parse(stdout) };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, out: JSON.parse(e.stderr) };
  }
}
const specbaseImport = (orgId: string, source: string, ...extra: string[]) =>
  cli('import', '--org', orgId, '--user', h.users.owner.user.email, source, ...extra);
const specbaseExport = (orgId: string, out: string, ...extra: string[]) =>
  cli('export', '--org', orgId, '--user', h.users.owner.user.email, '--out', out, ...extra);

async function put(dir: string, relative: string, content: string) {
  await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
  await writeFile(path.join(dir, relative), content);
}

async function emptyOrg(name: string): Promise<string> {
  const { org } = await provisionOrganization(h.services, { name, owner: h.users.owner.user });
  return org.id;
}

const actorIn = async (orgId: string): Promise<Actor> => ({
  principal: (await h.services.control.members.principal(orgId, h.users.owner.user.id))!,
  client: 'test',
});

beforeAll(async () => {
  h = await startHarness();
  work = await mkdtemp(path.join(os.tmpdir(), 'specbase-import-links-'));
  owner = await actorIn(h.orgId);
  const docs = path.join(work, 'docs');
  await put(docs, 'api/util.md', '# util\n\n## util.inspect(object)\n\nShows a value.\n');
  await put(
    docs,
    'api/fs.md',
    [
      '# File system',
      '',
      'See [inspect](util.md#utilinspectobject), [the guide](../guide/intro.md), [util](./util) and [[util]].',
      'Also [[Getting started|the start]], [Node](https://nodejs.org/) and [here](#file-system).',
      'Not there: [gone](missing.md), ![logo](../img/logo.png) and [[Nobody]].',
      '',
      '```',
      '[code](util.md)',
      '```',
      '',
    ].join('\n'),
  );
  await put(
    docs,
    'guide/intro.md',
    '---\ntitle: Getting started\naliases: [Onboarding, Zorblaxian handbook]\ntags: [howto]\npermalink: getting-started\ndate: 2024-01-01\n---\nRead [[fs]] first.\n',
  );
});
afterAll(async () => {
  await h?.close();
  await rm(work, { recursive: true, force: true });
});

describe('specbase import keeps links', () => {
  let orgId: string;
  let out: Record<string, any>;
  const idOf = (file: string): string => out.imported.find((i: { path: string }) => i.path === file).id;

  it('reports in the dry run what stays as written and what frontmatter is dropped, writing nothing', async () => {
    orgId = await emptyOrg('Links');
    const dry = await specbaseImport(orgId, path.join(work, 'docs'), '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out.imported).toHaveLength(3);
    expect(dry.out.unresolvedLinks).toEqual([
      {
        path: 'api/fs.md',
        links: [
          { target: 'missing.md', why: 'outside the import' },
          { target: '../img/logo.png', why: 'asset' },
          { target: '[[Nobody]]', why: 'no such title or file' },
        ],
      },
    ]);
    expect(dry.out.droppedFields).toEqual([{ path: 'guide/intro.md', fields: ['permalink', 'date'] }]);
    expect(dry.out.linksRewritten).toBe(6);
    expect((await h.services.store.importedPaths(orgId)).size).toBe(0);
  });

  it('makes relative, parent-relative, anchored and wiki links into artifact links in the import commits', async () => {
    ({ out } = await specbaseImport(orgId, path.join(work, 'docs')));
    expect(out.imported).toHaveLength(3);
    expect(out.linksRewritten).toBe(6);
    expect([...(await h.services.store.importedPaths(orgId)).keys()].sort()).toEqual([
      'api/fs.md',
      'api/util.md',
      'guide/intro.md',
    ]);
    const actor = await actorIn(orgId);
    const fs = await h.services.specs.read(actor, 'page', idOf('api/fs.md'), 'full');
    const url = (file: string) => `${h.baseUrl}/o/${orgId}/a/${idOf(file)}`;
    expect(fs.content).toContain(`[inspect](${url('api/util.md')}#utilinspectobject)`);
    expect(fs.content).toContain(`[the guide](${url('guide/intro.md')})`);
    expect(fs.content).toContain(`[util](${url('api/util.md')})`);
    expect(fs.content).toContain(`[the start](${url('guide/intro.md')})`);
    expect(fs.content).toContain('[gone](missing.md), ![logo](../img/logo.png) and [[Nobody]]');
    expect(fs.content).toContain('```\n[code](util.md)\n```');
    expect(fs.content).toContain('[Node](https://nodejs.org/)');
    expect(fs.links?.map((l) => l.title).sort()).toEqual(['Getting started', 'util']);
    const util = await h.services.specs.read(actor, 'page', idOf('api/util.md'), 'full');
    expect(util.referencedBy?.map((r) => r.title)).toEqual(['File system']);
    const intro = await h.services.specs.readAny(actor, idOf('guide/intro.md'), 'full');
    expect(intro.content).toContain(`Read [fs](${url('api/fs.md')}) first.`);
  });

  it('keeps aliases and tags where search finds them', async () => {
    const actor = await actorIn(orgId);
    const intro = await h.services.specs.readAny(actor, idOf('guide/intro.md'), 'full');
    expect(intro.title).toBe('Getting started');
    expect(intro.content).toContain('**Aliases:** Onboarding, Zorblaxian handbook');
    expect(intro.content).toContain('**Tags:** howto');
    const found = await h.services.specs.search(actor, { query: 'Zorblaxian handbook' });
    expect(found.results.map((r) => r.id)).toContain(idOf('guide/intro.md'));
  });
});

describe('export, then import into an empty organization', () => {
  async function roundTrip(fromOrg: string, name: string) {
    const zip = path.join(work, `${name}.zip`);
    const exported = await specbaseExport(fromOrg, zip);
    expect(exported.code).toBe(0);
    expect((await stat(zip)).size).toBeGreaterThan(0);
    const toOrg = await emptyOrg(`${name} again`);
    const imported = await specbaseImport(toOrg, zip);
    expect(imported.code).toBe(0);
    expect(imported.out.refused).toEqual([]);
    expect(await orgContents(h.services, toOrg)).toEqual(await orgContents(h.services, fromOrg));
    return { exported: exported.out, imported: imported.out };
  }

  it('gives the demo organization back: titles, tree, bodies and links', { timeout: 180_000 }, async () => {
    const { exported, imported } = await roundTrip(h.orgId, 'demo');
    expect(exported.files).toBeGreaterThan(20);
    expect(imported.skipped).toEqual([expect.objectContaining({ reason: "the organization's product" })]);
  });

  it('gives a real documentation set back (the Node.js API docs Debian installs)', { timeout: 180_000 }, async () => {
    const installed = execFileSync('dpkg', ['-L', 'nodejs'], { encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.startsWith(`${NODE_API_DOCS}/`) && file.endsWith('.md'));
    expect(installed.length).toBeGreaterThan(50);
    const orgId = await emptyOrg('Node docs');
    const first = await specbaseImport(orgId, NODE_API_DOCS);
    expect(first.out.imported).toHaveLength(installed.length);
    expect(first.code).toBe(0);
    expect(first.out.linksRewritten).toBeGreaterThan(100);
    await roundTrip(orgId, 'node-docs');
  });

  it('exports one artifact with its subtree, and a folder with its pages', { timeout: 120_000 }, async () => {
    const feature = (await h.services.store.view(h.orgId)).ofType('feature', new Set([h.defaultWorkspaceId]))[0]!;
    const one = await specbaseExport(h.orgId, path.join(work, 'one.zip'), '--artifact', feature.id);
    expect(one.out.files).toBeGreaterThan(1);
    const folder = (await h.services.store.folders(h.orgId))[0]!;
    const pages = await specbaseExport(h.orgId, path.join(work, 'folder.zip'), '--folder', folder.id);
    expect(pages.code).toBe(0);
    expect(owner.principal.orgId).toBe(h.orgId);
  });
});
