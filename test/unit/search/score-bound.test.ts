import { describe, expect, it } from 'vitest';
import { analyzeDocument, createWordEncoder, plainBodyOf } from '../../../src/search/analyze-document.js';
import { createTextEncoder } from '../../../src/search/encoder.js';
import { scaledBound } from '../../../src/search/match-masks.js';
import { parseQuery } from '../../../src/search/parse-query.js';
import { scoreDocument } from '../../../src/search/score-document.js';

const encoder = createTextEncoder();
const encodeWord = createWordEncoder(encoder);

/**
 * A document's score, and the bound of a title holding the query terms `titleWhole` (bit per
 * term) whole, `covered` of its `titleTerms` terms, with a body holding the terms `bodyWhole`.
 */
function scoreAndBound(query: string, title: string, body: string, shape: { titleWhole: number; covered: number; titleTerms: number; bodyWhole: number }) {
  const parsed = parseQuery(encoder, { query, workspaceIds: new Set(['ws']), limit: 10 });
  const doc = { id: 'doc', type: 'feature' as const, workspaceId: 'ws', title };
  const score = scoreDocument(analyzeDocument(encoder, encodeWord, doc, plainBodyOf(body)), parsed);
  const { titleWhole, covered, titleTerms, bodyWhole } = shape;
  const bound = scaledBound(parsed.terms.length)(titleWhole, titleWhole, covered, titleTerms, bodyWhole, bodyWhole, false) / 1e6;
  return { score, bound };
}

describe('the bound of a title, from what it and its body hold of the query', () => {
  // A bound above the score it can at best tie kept such titles from being pruned: "single
  // sign-on" scored the cap of 500 titles at 100,000 documents instead of 30.
  it.each([
    ['audit log export', 'Export log', 'The audit log export runs nightly.', { titleWhole: 0b110, covered: 2, titleTerms: 2, bodyWhole: 0b111 }],
    ['role permissions admin', 'Admin role', 'Role permissions admin screens list them.', { titleWhole: 0b101, covered: 2, titleTerms: 2, bodyWhole: 0b111 }],
    ['single sign on', 'Single account', 'Single sign on for every account.', { titleWhole: 0b01, covered: 1, titleTerms: 2, bodyWhole: 0b11 }],
  ])('"%s" over "%s": a document matching all the bound assumes scores exactly the bound', (query, title, body, shape) => {
    const { score, bound } = scoreAndBound(query, title, body, shape);
    expect(score).not.toBe(Math.round(score * 1e5) / 1e5);
    expect(bound).toBe(score);
  });

  it('counts only the terms the body holds: a body without "audit" bounds far lower, and still above the score', () => {
    const body = 'Nothing about it here.';
    const shape = { titleWhole: 0b110, covered: 2, titleTerms: 2 };
    const atBest = scoreAndBound('audit log export', 'Export log', body, { ...shape, bodyWhole: 0b111 });
    const asHeld = scoreAndBound('audit log export', 'Export log', body, { ...shape, bodyWhole: 0 });
    expect(asHeld.bound).toBeLessThan(atBest.bound - 0.2);
    expect(asHeld.bound).toBeGreaterThanOrEqual(asHeld.score);
  });

  it('counts an exact title only where the title can be exact', () => {
    const bound = scaledBound(1);
    expect(bound(1, 1, 1, 1, 1, 1, true)).toBe(1e6);
    expect(bound(1, 1, 1, 1, 1, 1, false)).toBeLessThan(1e6);
  });
});
