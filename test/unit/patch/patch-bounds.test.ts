import { describe, expect, it } from 'vitest';
import { InvalidInputError, PatchError } from '../../../src/errors.js';
import { applyPatch, applyPatchOffLoop, MAX_HUNKS } from '../../../src/patch/index.js';

const rows = (count: number) => Array.from({ length: count }, (_, i) => `row ${i}`);
const oneLineHunks = (lines: readonly string[]) => lines.map((line) => `@@\n-${line}\n+${line}!\n`).join('');

function refusal(run: () => unknown): PatchError {
  try {
    run();
  } catch (error) {
    if (error instanceof PatchError) return error;
    throw error;
  }
  throw new Error('the patch applied');
}

/** A seeded coin: the same "a"/"b" lines on every run. */
function coins(count: number, seed = 7): string[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) % 2 === 0 ? 'a' : 'b';
  });
}

describe('the work one patch may take is bounded', () => {
  it(`applies ${MAX_HUNKS} hunks and refuses one more, before placing any`, () => {
    const lines = rows(MAX_HUNKS + 1);
    const doc = `${lines.join('\n')}\n`;
    expect(applyPatch(doc, oneLineHunks(lines.slice(0, MAX_HUNKS))).hunks).toBe(MAX_HUNKS);
    const error = refusal(() => applyPatch(doc, oneLineHunks(lines)));
    expect(error.message).toBe(
      `The patch has ${MAX_HUNKS + 1} hunks; one edit applies at most ${MAX_HUNKS}. Join neighbouring changes into larger hunks, or send the change as several edits.`,
    );
    expect(error.details).toEqual({ reason: 'too_many_hunks' });
  });

  it('places hunks by their rarest line: 1,000 hunks in a document of 50,000 lines, quickly', () => {
    const lines = rows(50_000);
    const started = performance.now();
    const result = applyPatch(`${lines.join('\n')}\n`, oneLineHunks(lines.filter((_, i) => i % 50 === 0)));
    expect(result.hunks).toBe(1_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses hunks whose every line occurs thousands of times, once the budget of comparisons is spent', () => {
    const lines = coins(40_000);
    const doc = `${lines.join('\n')}\n`;
    const patch = Array.from({ length: 400 }, (_, h) => {
      const window = lines.slice(h * 100, h * 100 + 40);
      return `@@\n${window
        .slice(0, -1)
        .map((l) => ` ${l}`)
        .join('\n')}\n-${window.at(-1)}\n+${window.at(-1)}!\n`;
    }).join('');
    const error = refusal(() => applyPatch(doc, patch));
    expect(error.details.reason).toBe('too_costly');
    expect(error.message).toMatch(/^Hunk \d+ cannot be placed within the work one edit may take/);
  });
});

describe('large patches are applied in the diff thread', () => {
  const big = `${rows(20_000).join('\n')}\n`;

  it('gives the text the event loop would', async () => {
    const patch = oneLineHunks(['row 5', 'row 19999']);
    expect(await applyPatchOffLoop(big, patch)).toBe(applyPatch(big, patch).text);
  });

  it('keeps the refusals typed, with their details', async () => {
    const noMatch = await applyPatchOffLoop(big, '@@\n-no such row\n+x\n').catch((error: unknown) => error);
    expect(noMatch).toBeInstanceOf(PatchError);
    expect((noMatch as PatchError).details).toMatchObject({ hunk: 1, reason: 'no_match' });
    const control = await applyPatchOffLoop(big, '@@\n row 7\n+bell\u0007\n').catch((error: unknown) => error);
    expect(control).toBeInstanceOf(InvalidInputError);
    expect((control as InvalidInputError).data).toMatchObject({ hunk: 1, codePoint: 7 });
  });
});
