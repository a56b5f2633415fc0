import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/patch/index.js';
import { parseDiff } from '../../../src/web/views/diff-rows.js';

describe('word-level changes inside changed lines', () => {
  it('marks only the changed words of a removed line and its replacement', () => {
    const rows = parseDiff(
      unifiedDiff('Intro\nPay within 30 days.\nEnd\n', 'Intro\nPay within 14 days.\nEnd\n', 'doc.md'),
    );
    const del = rows.find((r) => r.kind === 'del')!;
    const add = rows.find((r) => r.kind === 'add')!;
    expect(del.words?.filter((w) => w.changed).map((w) => w.text)).toEqual(['30']);
    expect(add.words?.filter((w) => w.changed).map((w) => w.text)).toEqual(['14']);
    expect(add.words?.map((w) => w.text).join('')).toBe('Pay within 14 days.');
  });

  it('leaves lines without a counterpart, and very long pairs, highlighted as whole lines', () => {
    const long = 'word '.repeat(500);
    const rows = parseDiff(unifiedDiff(`a\n${long}\n`, `a\n${long}x\nadded\n`, 'doc.md'));
    expect(rows.filter((r) => r.kind !== 'ctx' && r.kind !== 'hunk').every((r) => r.words === undefined)).toBe(true);
  });
});
