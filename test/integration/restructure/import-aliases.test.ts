import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionOrganization } from '../../../src/app/provision.js';
import { IMPORT_COMMAND } from '../../../src/cli/import-command.js';
import type { Actor } from '../../../src/domain/index.js';
import { startHarness, type Harness } from '../../support/harness.js';

/** `specbase import` keeps frontmatter aliases in the body; search then finds the artifact by each alias as by its title. */
let h: Harness;
let work: string;
let orgId: string;
let actor: Actor;
let introId: string;

const MENTIONS = 6;
const mention = (n: number): string =>
  `# Widget notes ${n}\n\n${Array.from({ length: 8 }, () => 'The foo bar widget: a foo bar, then another foo bar.').join(' ')}\n`;

beforeAll(async () => {
  h = await startHarness();
  work = await mkdtemp(path.join(os.tmpdir(), 'specbase-import-aliases-'));
  const put = async (relative: string, content: string) => {
    await mkdir(path.dirname(path.join(work, relative)), { recursive: true });
    await writeFile(path.join(work, relative), content);
  };
  await put(
    'guide/intro.md',
    '---\ntitle: Getting started\naliases: [Foo Bar]\ntags: [howto]\n---\nRead this first.\n',
  );
  for (let n = 0; n < MENTIONS; n++) await put(`notes/widget-${n}.md`, mention(n));
  const { org } = await provisionOrganization(h.services, { name: 'Aliases', owner: h.users.owner.user });
  orgId = org.id;
  actor = { principal: (await h.services.control.members.principal(orgId, h.users.owner.user.id))!, client: 'test' };
});
afterAll(async () => {
  await h?.close();
  await rm(work, { recursive: true, force: true });
});

const ranked = async (query: string): Promise<string[]> =>
  (await h.services.specs.search(actor, { query })).results.map((result) => result.id);

describe('an imported alias is found like a title', () => {
  it('ranks the artifact first for a query that is its alias, above pages that say the words more often', async () => {
    const report = await IMPORT_COMMAND.run(h.services, {
      org: orgId,
      user: h.users.owner.user.email,
      dir: work,
      json: true,
    });
    const imported = report.imported as { path: string; id: string }[];
    expect(imported).toHaveLength(1 + MENTIONS);
    introId = imported.find((entry) => entry.path === 'guide/intro.md')!.id;
    const intro = await h.services.specs.readAny(actor, introId, 'full');
    expect(intro.content).toContain('**Aliases:** Foo Bar');
    for (const query of ['foo bar', 'Foo-Bar', 'FOO BAR', 'Getting started']) {
      const ids = await ranked(query);
      expect(ids[0], query).toBe(introId);
    }
    // The pages that say "foo bar" most are found too, after it.
    expect((await ranked('foo bar')).length).toBe(1 + MENTIONS);
  });

  it('stops ranking it first once an edit turns the aliases line into prose', async () => {
    const before = await h.services.specs.readAny(actor, introId, 'full');
    const body = before.content.replace(/^\*\*Aliases:\*\*[^\n]*$/m, 'Some call it a foo bar.');
    expect(body).not.toContain('Aliases');
    await h.services.specs.save(actor, 'page', introId, { body, baseVersion: before.version });
    const ids = await ranked('foo bar');
    expect(ids).toHaveLength(1 + MENTIONS);
    expect(ids[0]).not.toBe(introId);
    expect((await ranked('Getting started'))[0]).toBe(introId);
  });
});
