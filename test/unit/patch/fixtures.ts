/** Joins lines into a document that ends with a newline, as stored artifacts do. */
export function md(...lines: string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}

export const FEATURE = md(
  '# Export to CSV',
  '',
  'Users can export any list view to a CSV file.',
  '',
  '## Goals',
  '- Export the visible columns',
  '- Keep the current sort order',
  '- Finish within 5 seconds for 10,000 rows',
  '',
  '## Fields',
  '| Field | Type | Required |',
  '|---|---|---|',
  '| name | string | yes |',
  '| email | string | yes |',
  '| team | string | no |',
  '',
  '## Example',
  '```csv',
  'name,email,team',
  'Ada,ada@example.com,core',
  '```',
  '',
  '## Open questions',
  '- Should archived rows be included?',
);
