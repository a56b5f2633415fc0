import { describe, expect, it } from 'vitest';
import { matchRanges } from '../../../src/search/match-ranges.js';

const marked = (query: string, text: string): string[] =>
  matchRanges(query, text).map(([start, end]) => text.slice(start, end));

describe('matchRanges: the words a result is highlighted on', () => {
  it('marks whole words matching a query term, or starting with it, as retrieval matches them', () => {
    expect(marked('payment notif', 'Payments send notifications; a notary is not notified of repayment.')).toEqual([
      'Payments',
      'notifications',
      'notified',
    ]);
  });

  it('leaves stop words unmarked, and marks nothing for a query of stop words alone', () => {
    expect(marked('the checkout', 'The checkout of the cart')).toEqual(['checkout']);
    expect(matchRanges('the of', 'The checkout of the cart')).toEqual([]);
  });

  it('keeps a combining accent inside its word, so a highlight never splits a letter from its mark', () => {
    const text = 'Cafe\u0301 menu and re\u0301sume\u0301 upload';
    expect(marked('café', text)).toEqual(['Cafe\u0301']);
    expect(marked('resume', text)).toEqual(['re\u0301sume\u0301']);
  });
});
