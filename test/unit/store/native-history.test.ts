import { describe, expect, it } from 'vitest';
import { parseLog } from '../../../src/store/git/native-history.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const T = 'c'.repeat(40);
const BLOB1 = '1'.repeat(40);
const BLOB2 = '2'.repeat(40);
const ZERO = '0'.repeat(40);

const record = (oid: string, parents: string, message: string, raw: string) =>
  `\x1e${oid}\x1f${parents}\x1f${T}\x1fAna Lima\x1fana@example.com\x1f1700000000\x1f${message}\x1f${raw}`;

describe('parseLog', () => {
  it('reads commits oldest first with their added, changed and deleted files, and skips non-file entries', () => {
    const output =
      record(
        A,
        '',
        'Create capability: Pay\n\nArtifact-Id: x\n',
        `\n:000000 100644 ${ZERO} ${BLOB1} A\0capabilities/pay-1.md\0`,
      ) +
      record(
        B,
        A,
        'Edit by hand\n',
        `\0:100644 100644 ${BLOB1} ${BLOB2} M\0capabilities/pay-1.md\0:100644 000000 ${BLOB2} ${ZERO} D\0old.md\0:000000 160000 ${ZERO} ${BLOB1} A\0vendored\0`,
      );
    const steps = parseLog(output);
    expect(
      steps.map((s) => [s.oid, s.commit.parent, s.commit.tree, s.commit.author.name, s.commit.author.timestamp]),
    ).toEqual([
      [A, [], T, 'Ana Lima', 1700000000],
      [B, [A], T, 'Ana Lima', 1700000000],
    ]);
    expect(steps[0]!.commit.message).toBe('Create capability: Pay\n\nArtifact-Id: x\n');
    expect(steps[0]!.changes).toEqual([{ path: 'capabilities/pay-1.md', before: null, after: BLOB1 }]);
    expect(steps[1]!.changes).toEqual([
      { path: 'capabilities/pay-1.md', before: BLOB1, after: BLOB2 },
      { path: 'old.md', before: BLOB2, after: null },
    ]);
  });

  it('reads a commit that changed no file', () => {
    expect(parseLog(record(A, '', 'empty\n', '\n'))[0]!.changes).toEqual([]);
  });
});
