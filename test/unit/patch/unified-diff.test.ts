import { describe, expect, it } from 'vitest';
import { applyPatch, countLineChanges, unifiedDiff } from '../../../src/patch/index.js';
import { FEATURE, md } from './fixtures.js';

describe('unifiedDiff', () => {
  it('shows one change with file headers and three lines of context', () => {
    const after = FEATURE.replace('| team | string | no |\n', '| team | string | no |\n| phone | string | no |\n');
    expect(unifiedDiff(FEATURE, after, 'product/export-to-csv.md')).toBe(
      [
        '--- product/export-to-csv.md',
        '+++ product/export-to-csv.md',
        '@@ -13,6 +13,7 @@',
        ' | name | string | yes |',
        ' | email | string | yes |',
        ' | team | string | no |',
        '+| phone | string | no |',
        ' ',
        ' ## Example',
        ' ```csv',
        '',
      ].join('\n'),
    );
  });

  it('is empty when nothing changed', () => {
    expect(unifiedDiff(FEATURE, FEATURE, 'feature.md')).toBe('');
  });

  it('leaves carriage returns out of a CRLF document', () => {
    expect(unifiedDiff('a\r\nb\r\n', 'a\r\nc\r\n', 'doc.md')).toBe(
      '--- doc.md\n+++ doc.md\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n',
    );
  });

  it('marks a missing final newline', () => {
    expect(unifiedDiff('a\n', 'a\nb', 'doc.md')).toBe(
      '--- doc.md\n+++ doc.md\n@@ -1,1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n',
    );
  });
});

describe('unifiedDiff output applies with applyPatch, both ways (as history revert does)', () => {
  const pairs: [string, string, string][] = [
    [
      'a row added to a table',
      FEATURE,
      FEATURE.replace('| team | string | no |\n', '| team | string | no |\n| phone | string | no |\n'),
    ],
    [
      'title and last line changed',
      FEATURE,
      FEATURE.replace('# Export to CSV', '# CSV export').replace('included?', 'included? No.'),
    ],
    ['a section removed', FEATURE, FEATURE.replace(/## Example[\s\S]*```\n\n/, '')],
    ['from an empty document', '', md('# New page', '', 'Body.')],
    [
      'a CRLF document edited',
      FEATURE.replace(/\n/g, '\r\n'),
      FEATURE.replace('- Export', '- Export all').replace(/\n/g, '\r\n'),
    ],
  ];

  it.each(pairs)('%s', (_name, before, after) => {
    expect(applyPatch(before, unifiedDiff(before, after, 'doc.md')).text).toBe(after);
    if (after !== '' && before !== '')
      expect(applyPatch(after, unifiedDiff(after, before, 'doc.md')).text).toBe(before);
  });

  it('reverting an old change still works after a later change elsewhere', () => {
    const v1 = FEATURE;
    const v2 = v1.replace('# Export to CSV', '# CSV export');
    const v3 = v2.replace('- Should archived rows be included?', '- Should archived rows be included? No.');
    const revertV2 = unifiedDiff(v2, v1, 'doc.md');
    expect(applyPatch(v3, revertV2).text).toBe(v3.replace('# CSV export', '# Export to CSV'));
  });
});

describe('countLineChanges', () => {
  it.each([
    ['one line replaced', 'a\nb\nc\n', 'a\nB\nc\n', { added: 1, removed: 1 }],
    ['two lines appended', 'a\n', 'a\nb\nc\n', { added: 2, removed: 0 }],
    ['everything removed', 'a\nb\n', '', { added: 0, removed: 2 }],
    ['a file created', '', 'a\n\nb\n', { added: 3, removed: 0 }],
    ['a file created without a final newline', '', 'a\r\nb', { added: 2, removed: 0 }],
    ['an empty file stays empty', '', '', { added: 0, removed: 0 }],
    ['nothing changed', FEATURE, FEATURE, { added: 0, removed: 0 }],
    ['only line endings changed', 'a\r\nb\r\n', 'a\nb\n', { added: 0, removed: 0 }],
  ])('%s', (_name, before, after, expected) => {
    expect(countLineChanges(before, after)).toEqual(expected);
  });

  it('agrees with the counts applyPatch reports', () => {
    const patch =
      '@@\n ## Goals\n-- Export the visible columns\n+- Export the visible columns\n+- Export hidden columns on request\n';
    const result = applyPatch(FEATURE, patch);
    expect({ added: result.added, removed: result.removed }).toEqual({ added: 1, removed: 0 });
    expect(countLineChanges(FEATURE, result.text)).toEqual({ added: 1, removed: 0 });
  });
});
