const PROBE_LINES = 24;

/**
 * Where in the document a hunk that matched nowhere most likely meant to go: the window whose
 * lines look most like the hunk's context and removed lines. Used only to show the model the
 * current text it should have copied, so a simple score is enough: 1 for a line equal up to
 * whitespace and case, a share of common words otherwise; blank lines count for nothing.
 * Only the hunk's first lines are compared, so the work stays proportional to the document
 * however long the hunk is.
 */
export function closestRegion(doc: readonly string[], wanted: string[], statedStart?: number): number {
  const probe = wanted.slice(0, PROBE_LINES);
  const docWords = doc.map(words);
  const wantedWords = probe.map(words);
  const docKeys = doc.map(key);
  const wantedKeys = probe.map(key);
  const hint = Math.max(0, (statedStart ?? 1) - 1);
  let best = { start: Math.min(hint, Math.max(0, doc.length - 1)), score: 0 };

  for (let start = 0; start <= Math.max(0, doc.length - wanted.length); start++) {
    let score = 0;
    for (let i = 0; i < probe.length && start + i < doc.length; i++) {
      score += similarity(wantedKeys[i] ?? '', docKeys[start + i] ?? '', wantedWords[i], docWords[start + i]);
    }
    const closer = Math.abs(start - hint) < Math.abs(best.start - hint);
    if (score > best.score || (score === best.score && score > 0 && closer)) best = { start, score };
  }
  return best.start;
}

function similarity(a: string, b: string, aWords: Set<string> | undefined, bWords: Set<string> | undefined): number {
  if (a === '') return 0;
  if (a === b) return 1;
  if (!aWords?.size || !bWords?.size) return 0;
  let common = 0;
  for (const word of aWords) if (bWords.has(word)) common++;
  return (0.8 * common) / (aWords.size + bWords.size - common);
}

function key(line: string): string {
  return line.trim().replace(/\s+/g, ' ').toLowerCase();
}

function words(line: string): Set<string> {
  return new Set(
    line
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );
}
