import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/**
 * A unified diff of one document for people and models to read, with `--- label` and
 * `+++ label` headers and three lines of context; empty when nothing changed. Carriage
 * returns are left out so a CRLF document reads like any other; applyPatch matches it
 * against either kind of document.
 */
export function unifiedDiff(before: string, after: string, label: string): string {
  const diff = createTwoFilesPatch(label, label, before, after, undefined, undefined, {
    context: 3,
    stripTrailingCr: true,
    headerOptions: FILE_HEADERS_ONLY,
  });
  return diff.includes('\n@@ ') ? diff : '';
}
