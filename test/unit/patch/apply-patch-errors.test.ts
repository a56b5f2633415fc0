import { describe, expect, it } from 'vitest';
import { PatchError } from '../../../src/errors.js';
import { applyPatch } from '../../../src/patch/index.js';
import { FEATURE, md } from './fixtures.js';

function failure(doc: string, patch: string): PatchError {
  try {
    applyPatch(doc, patch);
  } catch (error) {
    if (error instanceof PatchError) return error;
    throw error;
  }
  throw new Error('the patch applied but was expected to fail');
}

const TASKS = md('# Tasks', '', '## Backend', '- TBD', '', '## Frontend', '- TBD');

interface ErrorCase {
  name: string;
  doc?: string;
  patch: string;
  details: PatchError['details'];
}

/** Every refusal names its reason, the failing hunk and the current lines nearest to it. */
const cases: ErrorCase[] = [
  {
    name: 'stale context: the line changed since the model read it',
    patch:
      '@@ -6,3 +6,3 @@\n - Export the visible columns\n-- Keep the sort order\n+- Keep the sort order and filters\n - Finish within 5 seconds for 10,000 rows\n',
    details: {
      hunk: 1,
      reason: 'no_match',
      nearest: [
        { line: 5, text: '## Goals' },
        { line: 6, text: '- Export the visible columns' },
        { line: 7, text: '- Keep the current sort order' },
        { line: 8, text: '- Finish within 5 seconds for 10,000 rows' },
        { line: 9, text: '' },
      ],
    },
  },
  {
    name: 'indentation is not ignored',
    doc: md('- parent', '  - child one', '  - child two'),
    patch: '@@\n - parent\n - child one\n-- child two\n+- child 2\n',
    details: {
      hunk: 1,
      reason: 'no_match',
      nearest: [
        { line: 1, text: '- parent' },
        { line: 2, text: '  - child one' },
        { line: 3, text: '  - child two' },
      ],
    },
  },
  {
    name: 'context against an empty document',
    doc: '',
    patch: '@@\n # Title\n+Body\n',
    details: { hunk: 1, reason: 'no_match', nearest: [] },
  },
  {
    name: 'a context-free insertion past the end of the document',
    patch: '@@ -40,0 +41,1 @@\n+- Who may export?\n',
    details: {
      hunk: 1,
      reason: 'no_match',
      nearest: [
        { line: 22, text: '' },
        { line: 23, text: '## Open questions' },
        { line: 24, text: '- Should archived rows be included?' },
      ],
    },
  },
  {
    name: 'a removed line that occurs twice',
    doc: TASKS,
    patch: '@@ -4 +4 @@\n-- TBD\n+- Write the API\n',
    details: {
      hunk: 1,
      reason: 'ambiguous',
      nearest: [
        { line: 4, text: '- TBD' },
        { line: 7, text: '- TBD' },
      ],
    },
  },
  {
    name: 'two places that match only when trailing whitespace is ignored',
    doc: md('- a ', '- a  ', '- b'),
    patch: '@@\n-- a\n+- c\n',
    details: {
      hunk: 1,
      reason: 'ambiguous',
      nearest: [
        { line: 1, text: '- a ' },
        { line: 2, text: '- a  ' },
      ],
    },
  },
  {
    name: 'an insertion with neither context nor line number',
    patch: '@@\n+- Who may export?\n',
    details: { hunk: 1, reason: 'ambiguous' },
  },
  {
    name: 'a no-op hunk: the added line equals the removed one',
    patch: '@@ -7 +7 @@\n-- Keep the current sort order\n+- Keep the current sort order\n',
    details: { hunk: 1, reason: 'no_change', nearest: [{ line: 7, text: '- Keep the current sort order' }] },
  },
  {
    name: 'a hunk that only strips trailing whitespace the document does not have',
    patch: '@@\n ## Goals\n-- Export the visible columns  \n+- Export the visible columns\n',
    details: {
      hunk: 1,
      reason: 'no_change',
      nearest: [
        { line: 5, text: '## Goals' },
        { line: 6, text: '- Export the visible columns' },
      ],
    },
  },
  {
    name: 'a hunk with context lines only',
    patch: '@@ -5,2 +5,2 @@\n ## Goals\n - Export the visible columns\n',
    details: { hunk: 1, reason: 'no_change' },
  },
  {
    name: 'the second hunk is a no-op',
    patch:
      '@@\n-# Export to CSV\n+# CSV export\n@@\n ## Fields\n-| Field | Type | Required |\n+| Field | Type | Required |\n',
    details: {
      hunk: 2,
      reason: 'no_change',
      nearest: [
        { line: 10, text: '## Fields' },
        { line: 11, text: '| Field | Type | Required |' },
      ],
    },
  },
  {
    name: 'two hunks that change the same line',
    patch: [
      '@@ -6,2 +6,2 @@',
      ' - Export the visible columns',
      '-- Keep the current sort order',
      '+- Keep the sort order',
      '@@ -7,2 +7,2 @@',
      ' - Keep the current sort order',
      '-- Finish within 5 seconds for 10,000 rows',
      '+- Finish within 3 seconds for 10,000 rows',
    ].join('\n'),
    details: { hunk: 2, reason: 'overlap', nearest: [{ line: 7, text: '- Keep the current sort order' }] },
  },
  {
    name: 'the same hunk sent twice',
    patch: '@@\n-# Export to CSV\n+# CSV export\n@@\n-# Export to CSV\n+# CSV export\n',
    details: { hunk: 2, reason: 'overlap', nearest: [{ line: 1, text: '# Export to CSV' }] },
  },
  {
    name: 'the whole new document instead of a diff',
    patch: '# Export to CSV\n\nUsers can export any list view to a CSV or Excel file.\n',
    details: { reason: 'not_a_diff' },
  },
  {
    name: 'an empty patch',
    patch: '  \n',
    details: { reason: 'not_a_diff' },
  },
  {
    name: 'changed lines without any header at all',
    patch: '-# Export to CSV\n+# CSV export\n',
    details: { reason: 'not_a_diff' },
  },
  {
    name: 'a patch for two files',
    patch:
      '--- a/feature.md\n+++ b/feature.md\n@@\n-# Export to CSV\n+# CSV export\n--- a/other.md\n+++ b/other.md\n@@\n-# Other\n+# Another\n',
    details: { reason: 'multiple_files' },
  },
  {
    name: 'a git patch for two files',
    patch:
      'diff --git a/feature.md b/feature.md\n@@\n-# Export to CSV\n+# CSV export\ndiff --git a/notes.md b/notes.md\n@@\n-# Notes\n+# Notes!\n',
    details: { reason: 'multiple_files' },
  },
];

describe('applyPatch refuses instead of guessing', () => {
  it.each(cases)('$name', ({ doc, patch, details }) => {
    const error = failure(doc ?? FEATURE, patch);
    expect(error.code).toBe('patch_failed');
    expect(error.details).toEqual(details);
  });

  it('tells the model which hunk failed, where, and how to fix it', () => {
    const error = failure(FEATURE, cases[0]!.patch);
    expect(error.message).toBe(
      [
        'Hunk 1 does not match the document: its context and removed lines were not found, not even ignoring trailing whitespace. The closest place is at line 7, where the hunk expects "- Keep the sort order" but the document has "- Keep the current sort order".',
        'Nearest current lines:',
        '  5 | ## Goals',
        '  6 | - Export the visible columns',
        '  7 | - Keep the current sort order',
        '  8 | - Finish within 5 seconds for 10,000 rows',
        '  9 | ',
        'Read the document again and copy the context and removed lines exactly.',
      ].join('\n'),
    );
  });

  it('names the matching places of an ambiguous hunk', () => {
    expect(failure(TASKS, '@@\n-- TBD\n+- Write the API\n').message).toBe(
      [
        'Hunk 1 matches 2 places in the document (starting at lines 4, 7), so it is unclear where it applies.',
        '  4 | - TBD',
        '  7 | - TBD',
        'Add more unchanged context lines around the change so that the hunk matches only one place.',
      ].join('\n'),
    );
  });

  it('names both files of a two-file patch', () => {
    expect(failure(FEATURE, cases.find((c) => c.name === 'a patch for two files')!.patch).message).toBe(
      'The patch changes 2 different files (feature.md, other.md), but it is applied to one document. Send only the hunks for this document, under at most one "---"/"+++" header.',
    );
  });

  it('applies all hunks or none: a stale second hunk fails the whole patch', () => {
    const first = '@@ -1 +1 @@\n-# Export to CSV\n+# CSV export\n';
    const staleSecond =
      '@@ -24 +24 @@\n-- Should deleted rows be included?\n+- Should archived rows be included? (no)\n';
    expect(applyPatch(FEATURE, first).text).toBe(FEATURE.replace('# Export to CSV', '# CSV export'));
    expect(failure(FEATURE, first + staleSecond).details).toEqual({
      hunk: 2,
      reason: 'no_match',
      nearest: [
        { line: 23, text: '## Open questions' },
        { line: 24, text: '- Should archived rows be included?' },
      ],
    });
  });

  it('a disambiguated version of the ambiguous patch applies', () => {
    expect(applyPatch(TASKS, '@@\n ## Frontend\n-- TBD\n+- Write the UI\n').text).toBe(
      TASKS.replace(/- TBD\n$/, '- Write the UI\n'),
    );
  });
});
