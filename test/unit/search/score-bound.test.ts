import { describe, expect, it } from 'vitest';
import { analyzeDocument, createWordEncoder, plainBodyOf } from '../../../src/search/analyze-document.js';
import { createTextEncoder } from '../../../src/search/encoder.js';
import { parseQuery } from '../../../src/search/parse-query.js';
import { queryReach, scoreBound, scoreDocument } from '../../../src/search/score-document.js';

const encoder = createTextEncoder();
const encodeWord = createWordEncoder(encoder);

/** A document's score and the bound its title gives, where every body could hold every query term whole. */
function scoreAndBound(query: string, title: string, body: string, titleMatch: { strength: number; focus: number }) {
  const parsed = parseQuery(encoder, { query, workspaceIds: new Set(['ws']), limit: 10 });
  const doc = { id: 'doc', type: 'feature' as const, workspaceId: 'ws', title };
  const score = scoreDocument(analyzeDocument(encoder, encodeWord, doc, plainBodyOf(body)), parsed);
  const reach = queryReach(parsed.terms, () => 'whole', () => true);
  return { score, bound: scoreBound(reach, titleMatch) };
}

describe('scoreBound', () => {
  // A bound above the score it can at best tie kept such titles from being pruned: "role
  // permissions admin" scored the cap of 500 titles at 100,000 documents instead of a few.
  it.each([
    ['audit log export', 'Export log', 'The audit log export runs nightly.', { strength: 2, focus: 1 }],
    ['role permissions admin', 'Admin role', 'Role permissions admin screens list them.', { strength: 2, focus: 1 }],
    ['single sign on', 'Single account', 'Single sign on for every account.', { strength: 1, focus: 0.5 }],
  ])('"%s" over "%s": a document matching all the bound assumes scores exactly the bound', (query, title, body, match) => {
    const { score, bound } = scoreAndBound(query, title, body, match);
    expect(score).not.toBe(Math.round(score * 1e5) / 1e5);
    expect(bound).toBe(score);
  });

  it('is never below the score of a document matching less than it assumes', () => {
    const { score, bound } = scoreAndBound('audit log export', 'Export log', 'Nothing about it here.', { strength: 2, focus: 1 });
    expect(bound).toBeGreaterThan(score);
  });
});
