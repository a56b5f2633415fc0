import { applyPatch as applyWithDiffPackage } from 'diff';
import { describe, expect, it } from 'vitest';
import { countLineChanges, unifiedDiff } from '../../../src/patch/index.js';

const lines = (count: number, tag: string) =>
  Array.from({ length: count }, (_, i) => `${tag} line ${i} ${'x'.repeat(i % 40)}`).join('\n') + '\n';

describe('diffs with bounded work', () => {
  it('a complete rewrite of a 1 MiB document is one replaced block (unbounded, Myers takes minutes here)', () => {
    const before = lines(28_000, 'old');
    const after = lines(28_000, 'new');
    expect(before.length).toBeGreaterThan(900_000);
    const diff = unifiedDiff(before, after, 'pages/big.md');
    expect(countLineChanges(before, after)).toEqual({ added: 28_000, removed: 28_000 });
    expect(diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'))).toHaveLength(28_000);
    expect(applyWithDiffPackage(before, diff)).toBe(after);
  });

  it('the coarse diff keeps the common lines around the rewritten middle as context, and applies', () => {
    const head = lines(50, 'head');
    const tail = lines(50, 'tail');
    const before = head + lines(8_000, 'old') + tail;
    const after = head + lines(8_000, 'new') + tail;
    const diff = unifiedDiff(before, after, 'doc.md');
    expect(diff).toMatch(/^--- doc\.md\n\+\+\+ doc\.md\n@@ -48,8006 \+48,8006 @@\n head line 47/);
    expect(applyWithDiffPackage(before, diff)).toBe(after);
  });

  it('small edits of large documents are still exact', () => {
    const before = lines(20_000, 'same');
    const after = before.replace('same line 10000 ', 'changed line 10000 ');
    expect(countLineChanges(before, after)).toEqual({ added: 1, removed: 1 });
    const diff = unifiedDiff(before, after, 'doc.md');
    expect(diff.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toHaveLength(2);
  });

  it('a change needing fewer edits than the budget stays exact, however many of its lines are new', () => {
    const before = lines(1_000, 'kept');
    const after = before
      .split('\n')
      .map((line, i) => (i % 2 === 1 && i < 800 ? line.replace('kept', 'new') : line))
      .join('\n');
    expect(countLineChanges(before, after)).toEqual({ added: 400, removed: 400 });
    const diff = unifiedDiff(before, after, 'doc.md');
    expect(diff.split('\n').filter((l) => /^-[^-]/.test(l))).toHaveLength(400);
    expect(applyWithDiffPackage(before, diff)).toBe(after);
  });

  it('a missing final newline is marked in the coarse diff too', () => {
    const before = lines(9_000, 'old').trimEnd();
    const after = lines(9_000, 'new').trimEnd();
    const diff = unifiedDiff(before, after, 'doc.md');
    expect(diff.match(/\\ No newline at end of file/g)).toHaveLength(2);
    expect(applyWithDiffPackage(before, diff)).toBe(after);
  });
});
