/**
 * Line comparisons one patch may spend placing its hunks: tens of milliseconds. A real edit
 * spends a few per hunk (its rarest line occurs once or twice); only hunks made of lines that
 * occur thousands of times each come near it.
 */
export const MAX_LINE_COMPARISONS = 2_000_000;

/**
 * Where each line text occurs in a document, for the two ways a hunk's line may equal a
 * document line (exactly, or but for trailing whitespace). Built once per patch, so that
 * placing a hunk looks only where its rarest line occurs instead of scanning the document,
 * and the comparisons all hunks of the patch make are counted against one budget.
 */
export class LineIndex {
  readonly #exact: Map<string, number[]>;
  #trimmed: Map<string, number[]> | undefined;
  #comparisonsLeft = MAX_LINE_COMPARISONS;

  constructor(readonly lines: readonly string[]) {
    this.#exact = positions(lines, (text) => text);
  }

  /** Ascending line numbers (0-based) whose text is `text`, in the given tier's sense. */
  at(text: string, tier: 'exact' | 'trimmed'): readonly number[] {
    if (tier === 'exact') return this.#exact.get(text) ?? [];
    this.#trimmed ??= positions(this.lines, (line) => line.trimEnd());
    return this.#trimmed.get(text.trimEnd()) ?? [];
  }

  /** Takes `count` comparisons from the budget; false once it is spent. */
  spend(count: number): boolean {
    this.#comparisonsLeft -= count;
    return this.#comparisonsLeft >= 0;
  }
}

function positions(lines: readonly string[], keyOf: (line: string) => string): Map<string, number[]> {
  const map = new Map<string, number[]>();
  lines.forEach((line, index) => {
    const key = keyOf(line);
    const list = map.get(key);
    if (list) list.push(index);
    else map.set(key, [index]);
  });
  return map;
}
