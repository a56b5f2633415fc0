import { describe, expect, it } from 'vitest';
import { fieldText, parseJudgments, parseSmartRecords } from '../../../bench/support/ir-collection.js';
import { contentWords, NLTK_ENGLISH_STOPWORDS } from '../../../bench/support/stopwords.js';

const SOURCE = [
  '.I 1',
  '.T ',
  'Use Made of Technical',
  'Libraries',
  '.A',
  'Slater, M.',
  '.W',
  '   The present study is a history',
  'of the DDC.',
  '.X',
  '1\t5\t1',
  '.I 02',
  '.T',
  'Title only',
  '.B',
  'CACM December, 1958',
  '.I 0',
  '',
].join('\n');

describe('SMART test collection files', () => {
  it('reads records by .I and fields by their marker line, ids as numbers', () => {
    const records = parseSmartRecords(SOURCE);
    expect(records.map((r) => r.id)).toEqual(['1', '2', '0']);
    expect(fieldText(records[0]!, 'T', ' ')).toBe('Use Made of Technical Libraries');
    expect(fieldText(records[0]!, 'W')).toBe('The present study is a history\nof the DDC.');
    expect(fieldText(records[0]!, 'A')).toBe('Slater, M.');
    expect(fieldText(records[1]!, 'W')).toBe('');
    expect(records[2]!.fields.size).toBe(0);
  });

  it('reads judgments as relevant document ids by query id', () => {
    const relevant = parseJudgments('01 1410  0 0\n01 1572  0 0\n     2     28\t0\t0.000000\n\n');
    expect([...relevant.entries()].map(([q, docs]) => [q, [...docs]])).toEqual([
      ['1', ['1410', '1572']],
      ['2', ['28']],
    ]);
  });

  it('keeps the content words of a query', () => {
    expect(NLTK_ENGLISH_STOPWORDS.size).toBe(179);
    expect(contentWords("What is information science?  I don't know; EL/1 (TSS)")).toBe(
      'information science know EL 1 TSS',
    );
  });
});
