import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, BlameView } from '../../../src/domain/types.js';
import { startHarness, type Harness } from '../../support/harness.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i + 1} of the document.`);

describe('blame: a version follows from the blame of the version before it', () => {
  let harness: Harness;
  let owner: Actor;
  let editor: Actor;

  beforeAll(async () => {
    harness = await startHarness();
    const actor = async (persona: 'owner' | 'editor'): Promise<Actor> => ({
      principal: (await harness.services.control.members.principal(harness.orgId, harness.users[persona].user.id))!,
      client: 'web',
    });
    owner = await actor('owner');
    editor = await actor('editor');
  }, 60_000);

  afterAll(() => harness?.close());

  it('as git blame tells it, version after version: lines changed, added, removed, moved, the last line without its newline', async () => {
    const { specs } = harness.services;
    const start = lines(200);
    const created = await specs.create(owner, 'page', { content: `# Blamed\n\n${start.join('\n')}\n` });
    const edits: [Actor, (body: string) => string][] = [
      [editor, (body) => body.replace('Line 50 of', 'Line fifty of')],
      [
        owner,
        (body) =>
          body.replace('Line 120 of the document.\n', 'Line 120 of the document.\nA line added.\nAnd another.\n'),
      ],
      [editor, (body) => body.replace('Line 10 of the document.\nLine 11 of the document.\n', '')],
      [owner, (body) => `${body.replace('Line 3 of the document.\n', '')}Line 3 of the document.`],
      [editor, (body) => body.replace('A line added.', 'A line added, then changed.')],
    ];
    let version = created.version;
    let before = await specs.blame(owner, created.id);
    for (const [actor, edit] of edits) {
      const body = edit((await specs.read(actor, 'page', created.id, 'full')).content);
      version = (await specs.save(actor, 'page', created.id, { body, baseVersion: version })).version;
      const asked: string[] = [];
      const followed = await specs.blame(owner, created.id, (v) => {
        asked.push(v);
        return v === before.version ? before : undefined;
      });
      const walked = await specs.blame(owner, created.id);
      expect(asked).toEqual([before.version]);
      expect(followed).toEqual(walked);
      before = walked;
    }
    expect(new Set(before.lines.map((l) => l.commit)).size).toBeGreaterThan(3);
  });

  it('takes the kept lines from the earlier blame, not from a walk of the history', async () => {
    const { specs } = harness.services;
    const created = await specs.create(owner, 'page', { content: `${lines(50).join('\n')}\n` });
    const earlier = await specs.blame(owner, created.id);
    const marked: BlameView = {
      ...earlier,
      lines: earlier.lines.map((l) => ({ ...l, subject: 'from the kept blame' })),
    };
    const body = `${lines(50).join('\n')}\nOne more line.\n`;
    const saved = await specs.save(editor, 'page', created.id, { body, baseVersion: created.version });
    const blame = await specs.blame(owner, created.id, (v) => (v === earlier.version ? marked : undefined));
    expect(blame.version).toBe(saved.version);
    expect(blame.lines.slice(0, 50).every((l) => l.subject === 'from the kept blame')).toBe(true);
    expect(blame.lines[50]).toMatchObject({ line: 51, text: 'One more line.', commit: saved.version });
    expect(blame.lines[50]!.author.email).toBe(harness.users.editor.user.email);
  });
});
