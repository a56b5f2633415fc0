import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/config/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, callError, connect } from './clients.js';

let h: Harness;
let client: Client;
let featureId: string;
let body: string;
let version: string;

const git = (...args: string[]) => execFileSync('git', ['--git-dir', h.gitdir, ...args], { encoding: 'utf8' }).trim();
const head = () => git('rev-parse', 'main');

beforeAll(async () => {
  h = await startHarness();
  client = await connect(h, 'editor', 'streamable', 'bad-input-client');
  const product = await call(client, 'specbase_read_product');
  const capabilities = await call(client, 'specbase_list_capabilities', { productId: product.data.id });
  const created = await call(client, 'specbase_create_feature', {
    capabilityId: capabilities.data.items[0].id,
    title: 'Bulk ordering',
  });
  featureId = created.data.id;
});
afterAll(async () => {
  await client?.close();
  await h?.close();
});
beforeEach(async () => {
  const read = await call(client, 'specbase_read_feature', { featureId, mode: 'full' });
  body = read.data.content;
  version = read.data.version;
});

/** Calls an edit that must fail, and checks that the repository did not move. */
async function refusedEdit(args: Record<string, unknown>): Promise<string> {
  const before = head();
  const message = await callError(client, 'specbase_edit_feature', { featureId, ...args });
  expect(head()).toBe(before);
  expect((await call(client, 'specbase_read_feature', { featureId, mode: 'full' })).data.content).toBe(body);
  return message;
}

describe('edits that must not apply change nothing and say why', () => {
  it('a hunk whose context is not in the document: names the hunk and shows the nearest lines', async () => {
    const message = await refusedEdit({
      patch: '@@ -3,3 +3,3 @@\n ## Overview\n-_How it works from the users point of view._\n+It works.\n',
    });
    expect(message).toMatch(/hunk 1/i);
    expect(message).toContain("_How it works from the user's point of view._");
    expect(message).toMatch(/^\s+\d+ \| _How it works from the user's point of view\._$/m);
  });

  it('text that is not a unified diff', async () => {
    expect(await refusedEdit({ patch: 'Please change the overview to say it works.' })).toMatch(
      /not a unified diff|not a diff/i,
    );
  });

  it('a patch that touches two files', async () => {
    const patch = [
      '--- a/one.md',
      '+++ b/one.md',
      '@@',
      ' ## Overview',
      '+x',
      '--- a/two.md',
      '+++ b/two.md',
      '@@',
      ' ## Notes',
      '+y',
      '',
    ].join('\n');
    expect(await refusedEdit({ patch })).toMatch(/The patch changes 2 different files \(one\.md, two\.md\)/);
  });

  it('a patch over the size limit, before anything is read or written', async () => {
    const patch = `@@\n ## Overview\n+${'x'.repeat(DEFAULT_LIMITS.maxPatchBytes)}\n`;
    expect(await refusedEdit({ patch })).toMatch(
      new RegExp(`the patch is \\d+ bytes; the limit is ${DEFAULT_LIMITS.maxPatchBytes} bytes`),
    );
  });

  it('a stale baseVersion when the patch no longer applies is a conflict that names the current version', async () => {
    await call(client, 'specbase_edit_feature', {
      featureId,
      patch:
        '@@\n ## Notes\n \n-_Dependencies, open questions, links._\n+Needs the pallet-size rules from the warehouse team.\n',
    });
    const current = (await call(client, 'specbase_read_feature', { featureId, mode: 'full' })).data;
    body = current.content;
    const message = await refusedEdit({
      baseVersion: version,
      patch: '@@\n ## Notes\n \n-_Dependencies, open questions, links._\n+Something else.\n',
    });
    expect(message).toContain(`changed since version ${version}`);
    expect(message).toContain(current.version);
  });

  it('a stale baseVersion whose patch still applies cleanly is accepted', async () => {
    const stale = version;
    await call(client, 'specbase_edit_feature', {
      featureId,
      patch: '@@\n ## Scope\n \n+Orders of 20 or more items.\n',
    });
    const edit = await call(client, 'specbase_edit_feature', {
      featureId,
      baseVersion: stale,
      patch: "@@\n ## User stories\n \n+- As a restaurant buyer, I want to reorder last week's list.\n",
    });
    expect(edit.data.added).toBe(1);
  });
});

describe('bad characters are refused with which one and where, and nothing is written', () => {
  const notesAdd = (added: string) => `@@\n ## Notes\n+${added}\n`;

  it.each([
    ['NUL', 'a\u0000b', /adds a control character \(U\+0000 NUL\) at line 3, column 3 of the patch/],
    ['ESC', '\u001b[31mred', /adds a control character \(U\+001B ESC\) at line 3, column 2 of the patch/],
    ['BEL', 'ding\u0007', /adds a control character \(U\+0007 BEL\) at line 3, column 6 of the patch/],
    ['a lone CR', 'one\rtwo', /adds a line break \(U\+000D CR\) that is not part of a line ending at line 3, column 5/],
  ])('%s in an added line', async (_name, added, expected) => {
    const message = await refusedEdit({ patch: notesAdd(added) });
    expect(message).toMatch(/^Hunk 1 /);
    expect(message).toMatch(expected);
  });

  it('a lone surrogate anywhere in the patch, even in a context line', async () => {
    const message = await refusedEdit({ patch: '@@\n ## Notes \ud83d\n+fine\n' });
    expect(message).toMatch(/lone surrogate \(U\+D83D, half of a UTF-16 pair\) at line 2, column 11/);
  });

  it('a heading that turns the title into text with a control character', async () => {
    const heading = body.split('\n')[0]!;
    const message = await refusedEdit({ patch: `@@\n-${heading}\n+# Bulk\tordering\n` });
    expect(message).toMatch(/the title \(the first "# " heading\) has a tab \(U\+0009\) at character 5/);
  });

  it.each([
    ['a right-to-left override', '\u202e', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['a pop directional isolate', '\u2069', 'U+2069 POP DIRECTIONAL ISOLATE'],
  ])(
    'a heading that turns the title into text with %s, and git log stays as it was',
    async (_name, character, named) => {
      const heading = body.split('\n')[0]!;
      const log = git('log', '--format=%H %s', 'main');
      const message = await refusedEdit({ patch: `@@\n-${heading}\n+# Bulk ${character}ordering\n` });
      expect(message).toContain(
        `the title (the first "# " heading) has a bidirectional formatting character (${named}) at character 6`,
      );
      expect(git('log', '--format=%H %s', 'main')).toBe(log);
    },
  );

  it('a heading with a lone surrogate', async () => {
    const heading = body.split('\n')[0]!;
    const message = await refusedEdit({ patch: `@@\n-${heading}\n+# Bulk \udc00 ordering\n` });
    expect(message).toMatch(/lone surrogate \(U\+DC00/);
  });

  it('tabs and CRLF line endings in a patch are still fine', async () => {
    const edit = await call(client, 'specbase_edit_feature', {
      featureId,
      patch: '@@\r\n ## Notes\r\n+\tindented by a tab\r\n',
    });
    expect(edit.data.added).toBe(1);
    const read = await call(client, 'specbase_read_feature', { featureId, mode: 'full' });
    expect(read.data.content).toContain('\n\tindented by a tab\n');
  });

  it.each([
    ['a line break', 'Bulk\nordering', /the title has a line break \(U\+000A LF\) at character 5/],
    ['a carriage return', 'Bulk\rordering', /the title has a line break \(U\+000D CR\) at character 5/],
    ['a Unicode line separator', 'Bulk\u2028ordering', /the title has a line break \(U\+2028\) at character 5/],
    ['a control character', 'Bulk\u0000ordering', /the title has a control character \(U\+0000 NUL\) at character 5/],
    [
      'a lone surrogate',
      'Bulk \ud800',
      /the title has a lone surrogate \(U\+D800, half of a UTF-16 pair\) at character 6/,
    ],
    [
      'a right-to-left override',
      'Invoice \u202etxt.exe',
      /the title has a bidirectional formatting character \(U\+202E RIGHT-TO-LEFT OVERRIDE\) at character 9/,
    ],
    [
      'a left-to-right embedding',
      '\u202aBulk ordering',
      /the title has a bidirectional formatting character \(U\+202A LEFT-TO-RIGHT EMBEDDING\) at character 1/,
    ],
    [
      'a first strong isolate',
      'Bulk \u2068ordering\u2069',
      /the title has a bidirectional formatting character \(U\+2068 FIRST STRONG ISOLATE\) at character 6/,
    ],
  ])('a title at create with %s', async (_name, title, expected) => {
    const before = head();
    const capabilityId = (await call(client, 'specbase_read_feature', { featureId })).data.parentId;
    const message = await callError(client, 'specbase_create_feature', { capabilityId, title });
    expect(message).toMatch(expected);
    expect(head()).toBe(before);
  });
});

describe('content that looks like code or metadata stays inert text', () => {
  it('a body that starts with ---js frontmatter is stored as text, never evaluated, and the real frontmatter stays intact', async () => {
    const marker = `specbase_pwned_${Date.now()}`;
    const injected = `---js\n{ title: (globalThis.${marker} = true, 'x') }\n---\n`;
    const lines = body.split('\n');
    const edit = await call(client, 'specbase_edit_feature', {
      featureId,
      patch: `@@\n+${injected.trimEnd().split('\n').join('\n+')}\n ${lines[0]}\n`,
    });
    expect(edit.data.added).toBe(3);
    const read = await call(client, 'specbase_read_feature', { featureId, mode: 'full' });
    expect(read.data.content.startsWith('---js\n')).toBe(true);
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
    const file = git('ls-tree', '-r', '--name-only', 'main')
      .split('\n')
      .find((p) => p.includes(featureId.slice(0, 8)))!;
    const stored = git('show', `main:${file}`);
    expect(stored.startsWith('---\nid: ')).toBe(true);
    expect(stored).toMatch(/\ntitle: ["']?Bulk ordering["']?\n/);
  });
});

describe('tool arguments are validated before anything runs', () => {
  it.each([
    ['specbase_search', { query: 'checkout', limit: 51 }],
    ['specbase_search', { query: 'checkout', limit: 0 }],
    ['specbase_search', { query: '   ' }],
    ['specbase_search', { query: 'checkout', artifactTypes: ['epic'] }],
    ['specbase_read_feature', { featureId: 'x', mode: 'everything' }],
    ['specbase_create_requirement', { featureId: '00000000-0000-4000-8000-000000000000', type: 'NICE_TO_HAVE' }],
    ['specbase_create_feature', { capabilityId: '00000000-0000-4000-8000-000000000000', title: 'x'.repeat(201) }],
  ])('%s %j', async (tool, args) => {
    const before = head();
    const message = await callError(client, tool, args);
    expect(message.length).toBeGreaterThan(10);
    expect(message).not.toMatch(/internal|unexpected/i);
    expect(head()).toBe(before);
  });
});
