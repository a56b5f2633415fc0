import { expect, it } from 'vitest';
import {
  countLineChanges,
  countLineChangesOffLoop,
  unifiedDiff,
  unifiedDiffOffLoop,
} from '../../../src/patch/index.js';

/** About `bytes` of lines, non-ASCII included, different for each tag. */
const document = (tag: string, bytes: number, every = 1): string => {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = i % every === 0 ? `${tag} Absatz ${i}: Größe, 日本語, emoji 🚀` : `common line ${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
};

it('diffs and counts large texts in the thread exactly as on the event loop', async () => {
  const pairs: [string, string][] = [
    [document('alpha', 300_000), document('beta', 300_000)],
    [document('alpha', 300_000, 50), document('beta', 300_000, 50)],
    ['', document('created', 100_000)],
    [document('same', 100_000), document('same', 100_000)],
  ];
  for (const [before, after] of pairs) {
    expect(await unifiedDiffOffLoop(before, after, 'doc.md')).toBe(unifiedDiff(before, after, 'doc.md'));
    expect(await countLineChangesOffLoop(before, after, false)).toEqual(countLineChanges(before, after, false));
    expect(await countLineChangesOffLoop(before, after)).toEqual(countLineChanges(before, after));
  }
});

it('answers many requests sent in one turn, each with its own result', async () => {
  const befores = [1, 2, 3, 4].map((n) => document(`v${n}`, 80_000, n * 10));
  const afters = [1, 2, 3, 4].map((n) => document(`w${n}`, 80_000, n * 10));
  const diffs = await Promise.all(befores.map((before, i) => unifiedDiffOffLoop(before, afters[i]!, `doc${i}.md`)));
  diffs.forEach((diff, i) => expect(diff).toBe(unifiedDiff(befores[i]!, afters[i]!, `doc${i}.md`)));
});
