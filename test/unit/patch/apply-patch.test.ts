import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../../src/patch/index.js';
import { FEATURE, md } from './fixtures.js';

interface Case {
  name: string;
  doc?: string;
  patch: string;
  expected: string;
  added?: number;
  removed?: number;
}

const swapSortGoal = FEATURE.replace('- Keep the current sort order\n', '- Keep the current sort order and filters\n');
const addPhoneRow = FEATURE.replace('| team | string | no |\n', '| team | string | no |\n| phone | string | no |\n');

/** Imperfect patches of the kinds language models write, each with the exact resulting text. */
const cases: Case[] = [
  {
    name: 'a clean git patch with diff --git, index and file headers',
    patch: [
      'diff --git a/feature.md b/feature.md',
      'index 3b18e51..a9c2f04 100644',
      '--- a/feature.md',
      '+++ b/feature.md',
      '@@ -6,3 +6,3 @@',
      ' - Export the visible columns',
      '-- Keep the current sort order',
      '+- Keep the current sort order and filters',
      ' - Finish within 5 seconds for 10,000 rows',
      '',
    ].join('\n'),
    expected: swapSortGoal,
    added: 1,
    removed: 1,
  },
  {
    name: 'wrong line numbers',
    patch:
      '@@ -40,3 +40,3 @@\n - Export the visible columns\n-- Keep the current sort order\n+- Keep the current sort order and filters\n - Finish within 5 seconds for 10,000 rows\n',
    expected: swapSortGoal,
  },
  {
    name: 'wrong line counts',
    patch:
      '--- feature.md\n+++ feature.md\n@@ -6,2 +6,9 @@\n - Export the visible columns\n-- Keep the current sort order\n+- Keep the current sort order and filters\n',
    expected: swapSortGoal,
  },
  {
    name: 'no file headers',
    patch: '@@ -14,2 +14,3 @@\n | email | string | yes |\n | team | string | no |\n+| phone | string | no |\n',
    expected: addPhoneRow,
  },
  {
    name: 'bare @@',
    patch: '@@\n | team | string | no |\n+| phone | string | no |\n \n',
    expected: addPhoneRow,
  },
  {
    name: '@@ ... @@ placeholder header',
    patch: '@@ ... @@\n | email | string | yes |\n | team | string | no |\n+| phone | string | no |',
    expected: addPhoneRow,
  },
  {
    name: '@@ -1 +1 @@ without counts, replacing the title',
    patch: '--- a/feature.md\n+++ b/feature.md\n@@ -1 +1 @@\n-# Export to CSV\n+# Export lists to CSV\n',
    expected: FEATURE.replace('# Export to CSV\n', '# Export lists to CSV\n'),
  },
  {
    name: 'section text after the closing @@',
    patch:
      '@@ -5,3 +5,3 @@ ## Goals\n ## Goals\n-- Export the visible columns\n+- Export the visible columns in their current order\n',
    expected: FEATURE.replace(
      '- Export the visible columns\n',
      '- Export the visible columns in their current order\n',
    ),
  },
  {
    name: 'blank context lines written as empty lines',
    patch:
      '@@ -8,4 +8,5 @@\n - Finish within 5 seconds for 10,000 rows\n\n+Exports larger than 100,000 rows run in the background.\n+\n ## Fields\n',
    expected: FEATURE.replace(
      '10,000 rows\n\n## Fields',
      '10,000 rows\n\nExports larger than 100,000 rows run in the background.\n\n## Fields',
    ),
    added: 2,
    removed: 0,
  },
  {
    name: 'trailing whitespace in the patch context',
    patch:
      '@@\n ## Goals  \n - Export the visible columns\t\n-- Keep the current sort order \n+- Keep the current sort order and filters\n',
    expected: swapSortGoal,
  },
  {
    name: 'trailing whitespace in the document is kept on context lines',
    doc: md('# Notes', '', '- alpha   ', '- beta', '- gamma  '),
    patch: '@@\n - alpha\n-- beta\n+- BETA\n - gamma\n',
    expected: md('# Notes', '', '- alpha   ', '- BETA', '- gamma  '),
  },
  {
    name: 'an exact match wins over whitespace-tolerant ones',
    doc: md('- item ', '- item', '- other'),
    patch: '@@\n-- item\n+- first\n',
    expected: md('- item ', '- first', '- other'),
  },
  {
    name: 'CRLF document, LF patch: CRLF kept, added lines get CRLF',
    doc: FEATURE.replace(/\n/g, '\r\n'),
    patch:
      '@@ -13,3 +13,4 @@\n | name | string | yes |\n | email | string | yes |\n | team | string | no |\n+| phone | string | no |\n',
    expected: addPhoneRow.replace(/\n/g, '\r\n'),
  },
  {
    name: 'a document with mixed line endings keeps each line its own ending',
    doc: '# Mixed\r\none\ntwo\nthree\n',
    patch: '@@\n # Mixed\n-one\n+ONE\n two\n',
    expected: '# Mixed\r\nONE\ntwo\nthree\n',
  },
  {
    name: 'CRLF patch on an LF document',
    patch:
      '--- a/feature.md\r\n+++ b/feature.md\r\n@@ -14,2 +14,3 @@\r\n | email | string | yes |\r\n | team | string | no |\r\n+| phone | string | no |\r\n',
    expected: addPhoneRow,
  },
  {
    name: 'two hunks in document order',
    patch: [
      '@@ -1,3 +1,3 @@',
      '-# Export to CSV',
      '+# Export to CSV and Excel',
      ' ',
      '-Users can export any list view to a CSV file.',
      '+Users can export any list view to a CSV or Excel file.',
      '@@ -23,2 +23,3 @@',
      ' ## Open questions',
      ' - Should archived rows be included?',
      '+- Which Excel versions must open the file?',
    ].join('\n'),
    expected: FEATURE.replace('# Export to CSV\n', '# Export to CSV and Excel\n')
      .replace('to a CSV file.', 'to a CSV or Excel file.')
      .concat('- Which Excel versions must open the file?\n'),
    added: 3,
    removed: 2,
  },
  {
    name: 'file headers followed by changed lines without any @@ line',
    patch: '--- a/feature.md\n+++ b/feature.md\n-# Export to CSV\n+# CSV export\n',
    expected: FEATURE.replace('# Export to CSV', '# CSV export'),
  },
  {
    name: 'hunks separated by an empty line',
    patch:
      '@@ -1 +1 @@\n-# Export to CSV\n+# CSV export\n\n@@ -24 +24 @@\n-- Should archived rows be included?\n+- Should archived rows be exported?\n\n',
    expected: FEATURE.replace('# Export to CSV', '# CSV export').replace('be included?', 'be exported?'),
  },
  {
    name: 'hunks out of document order, each with made-up numbers',
    patch: [
      '@@ -2,2 +2,3 @@',
      ' ## Open questions',
      ' - Should archived rows be included?',
      '+- Who may export?',
      '@@ -30,2 +31,2 @@',
      ' ## Goals',
      '-- Export the visible columns',
      '+- Export the visible columns with their headers',
    ].join('\n'),
    expected: FEATURE.replace(
      '- Export the visible columns\n',
      '- Export the visible columns with their headers\n',
    ).concat('- Who may export?\n'),
  },
  {
    name: 'a table row changed in the middle of a table',
    patch:
      '@@\n | name | string | yes |\n-| email | string | yes |\n+| email | string (RFC 5322) | yes |\n | team | string | no |\n',
    expected: FEATURE.replace('| email | string | yes |', '| email | string (RFC 5322) | yes |'),
  },
  {
    name: 'lines inside a code fence',
    patch:
      '@@\n ```csv\n-name,email,team\n-Ada,ada@example.com,core\n+name,email,team,phone\n+Ada,ada@example.com,core,\n ```\n',
    expected: FEATURE.replace(
      'name,email,team\nAda,ada@example.com,core\n',
      'name,email,team,phone\nAda,ada@example.com,core,\n',
    ),
    added: 2,
    removed: 2,
  },
  {
    name: 'context lines that lost their leading space',
    patch: '@@\n## Example\n```csv\n-name,email,team\n+name,email,team,phone\n',
    expected: FEATURE.replace('name,email,team\n', 'name,email,team,phone\n'),
  },
  {
    name: 'a patch wrapped in a diff code fence with prose around it',
    patch:
      'Here is the change:\n\n```diff\n--- a/feature.md\n+++ b/feature.md\n@@ -24 +24,2 @@\n - Should archived rows be included?\n+- Should deleted users be listed?\n```\n\nLet me know if you need more.\n',
    expected: FEATURE.concat('- Should deleted users be listed?\n'),
  },
  {
    name: 'insertion at the end of the document',
    patch:
      '@@ -23,2 +23,6 @@\n ## Open questions\n - Should archived rows be included?\n+\n+## Out of scope\n+- PDF export\n',
    expected: FEATURE.concat('\n## Out of scope\n- PDF export\n'),
    added: 3,
    removed: 0,
  },
  {
    name: 'deletion of the last line',
    patch: '@@ -22,3 +22,2 @@\n \n ## Open questions\n-- Should archived rows be included?\n',
    expected: FEATURE.replace('- Should archived rows be included?\n', ''),
    added: 0,
    removed: 1,
  },
  {
    name: 'removed lines only, no context',
    patch:
      '@@ -9,8 +9,0 @@\n-\n-## Fields\n-| Field | Type | Required |\n-|---|---|---|\n-| name | string | yes |\n-| email | string | yes |\n-| team | string | no |\n',
    expected: FEATURE.replace(
      '\n## Fields\n| Field | Type | Required |\n|---|---|---|\n| name | string | yes |\n| email | string | yes |\n| team | string | no |\n',
      '',
    ),
    removed: 7,
  },
  {
    name: 'a document without a final newline keeps it that way',
    doc: '# Draft\n\nFirst line',
    patch: '@@ -3 +3,2 @@\n First line\n+Second line\n',
    expected: '# Draft\n\nFirst line\nSecond line',
  },
  {
    name: '"\\ No newline at end of file" markers',
    doc: '# Draft\n\nFirst line',
    patch:
      '--- a/draft.md\n+++ b/draft.md\n@@ -3 +3 @@\n-First line\n\\ No newline at end of file\n+First line, revised\n\\ No newline at end of file\n',
    expected: '# Draft\n\nFirst line, revised',
  },
  {
    name: 'a new file patch into an empty document',
    doc: '',
    patch:
      'diff --git a/page.md b/page.md\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/page.md\n@@ -0,0 +1,3 @@\n+# Runbook\n+\n+Restart the worker first.\n',
    expected: md('# Runbook', '', 'Restart the worker first.'),
    added: 3,
    removed: 0,
  },
  {
    name: 'a pure insertion at its stated line (after line 4)',
    patch: '@@ -4,0 +5,2 @@\n+> Available on the Team plan.\n+\n',
    expected: FEATURE.replace('file.\n\n## Goals', 'file.\n\n> Available on the Team plan.\n\n## Goals'),
  },
  {
    name: 'the same file header repeated before every hunk',
    patch: [
      '--- a/feature.md',
      '+++ b/feature.md',
      '@@ -1 +1 @@',
      '-# Export to CSV',
      '+# CSV export',
      '--- a/feature.md',
      '+++ b/feature.md',
      '@@ -24 +24 @@',
      '-- Should archived rows be included?',
      '+- Should archived rows be included? (decided: no)',
    ].join('\n'),
    expected: FEATURE.replace('# Export to CSV', '# CSV export').replace('included?\n', 'included? (decided: no)\n'),
  },
  {
    name: 'removing a "-- " line and adding a "++ " line is content, not a file header',
    doc: md('Thanks,', '-- the team', 'footer'),
    patch: '@@\n Thanks,\n--- the team\n+++ the whole team\n footer\n',
    expected: md('Thanks,', '++ the whole team', 'footer'),
  },
  {
    name: 'a horizontal rule replaced (a removed "---" is written "----")',
    doc: md('# Page', '', '---', '', '- one', '- two'),
    patch: '@@\n # Page\n \n----\n+***\n \n',
    expected: md('# Page', '', '***', '', '- one', '- two'),
  },
  {
    name: 'replacing the whole document',
    doc: md('# Old', 'old body'),
    patch: '@@ -1,2 +1,3 @@\n-# Old\n-old body\n+# New\n+\n+new body\n',
    expected: md('# New', '', 'new body'),
    added: 3,
    removed: 2,
  },
  {
    name: 'a nested list item indented with two spaces',
    doc: md('- parent', '  - child one', '  - child two', '- sibling'),
    patch: '@@\n - parent\n   - child one\n-  - child two\n+  - child two, renamed\n+  - child three\n',
    expected: md('- parent', '  - child one', '  - child two, renamed', '  - child three', '- sibling'),
  },
];

describe('applyPatch on imperfect patches', () => {
  it.each(cases)('$name', ({ doc, patch, expected, added, removed }) => {
    const result = applyPatch(doc ?? FEATURE, patch);
    expect(result.text).toBe(expected);
    if (added !== undefined) expect(result.added).toBe(added);
    if (removed !== undefined) expect(result.removed).toBe(removed);
  });

  it('counts the hunks it applied', () => {
    const patchOf = (name: string) => cases.find((c) => c.name === name)?.patch ?? '';
    expect(applyPatch(FEATURE, patchOf('two hunks in document order')).hunks).toBe(2);
    expect(applyPatch(FEATURE, patchOf('wrong line numbers')).hunks).toBe(1);
  });
});
