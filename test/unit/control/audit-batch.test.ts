import { describe, expect, it } from 'vitest';
import { AuditBatches, type AuditEvent } from '../../../src/control/audit-batch.js';
import type { SqlDatabase, SqlValue } from '../../../src/control/index.js';

/**
 * The SQL seam the batches write through: rows land in `rows` while `refusing` is false;
 * otherwise every INSERT fails as SQLite's does on a read-only file.
 */
function database() {
  const rows: string[] = [];
  const seam = {
    refusing: false,
    attempts: 0,
    rows,
    async run(_sql: string, params: readonly SqlValue[] = []) {
      seam.attempts++;
      if (seam.refusing)
        throw Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
      // Each row's first value stands for the row (the audit time, in the real table).
      for (let i = 0; i < params.length; i += 11) rows.push(params[i] as string);
      return params.length / 11;
    },
  };
  return seam;
}

const row = (name: string): SqlValue[] => [name, ...Array<SqlValue>(10).fill(null)];

function batches(heldRows: number) {
  const db = database();
  const events: AuditEvent[] = [];
  const audit = new AuditBatches(db as unknown as SqlDatabase, { heldRows, report: (event) => events.push(event) });
  const write = (...names: string[]) => Promise.all(names.map((name) => audit.write(row(name))));
  return { db, events, audit, write };
}

describe('audit batches while the database refuses writes', () => {
  it('hold the rows of a short outage and write them, in order, once it takes them again: nothing lost', async () => {
    const { db, events, audit, write } = batches(100);
    await write('before');
    db.refusing = true;
    // Each write resolves although its row is not stored: the caller's work does not fail for the audit log.
    await write('a', 'b');
    await write('c');
    expect(audit.health()).toEqual({ heldRows: 3, droppedRows: 0 });
    expect(db.attempts).toBeGreaterThanOrEqual(3);
    db.refusing = false;
    await write('after');
    expect(db.rows).toEqual(['before', 'a', 'b', 'c', 'after']);
    expect(audit.health()).toEqual({ heldRows: 0, droppedRows: 0 });
    // Told once when it started failing and once when it ended, not once per row or attempt.
    expect(events.map((event) => event.kind)).toEqual(['failing', 'recovered']);
    expect(events[1]).toMatchObject({ kind: 'recovered', dropped: 0 });
  });

  it('try the held rows again on their own when no new row comes', async () => {
    const { db, audit, write } = batches(100);
    db.refusing = true;
    await write('a', 'b');
    db.refusing = false;
    await expect.poll(() => db.rows, { timeout: 5_000 }).toEqual(['a', 'b']);
    expect(audit.health()).toEqual({ heldRows: 0, droppedRows: 0 });
  });

  it('drop the oldest past the bound, count them, and report the count once when the outage ends', async () => {
    const { db, events, audit, write } = batches(3);
    db.refusing = true;
    await write('1', '2');
    await write('3', '4', '5');
    expect(audit.health()).toEqual({ heldRows: 3, droppedRows: 2 });
    db.refusing = false;
    await audit.drain();
    expect(db.rows).toEqual(['3', '4', '5']);
    expect(events.map((event) => event.kind)).toEqual(['failing', 'recovered']);
    expect(events[1]).toMatchObject({ kind: 'recovered', dropped: 2, held: 0 });

    // A second burst is reported on its own; the count since start keeps growing.
    db.refusing = true;
    await write('6', '7', '8', '9');
    db.refusing = false;
    await audit.drain();
    expect(db.rows).toEqual(['3', '4', '5', '7', '8', '9']);
    expect(audit.health()).toEqual({ heldRows: 0, droppedRows: 3 });
    expect(events.map((event) => [event.kind, 'dropped' in event ? event.dropped : undefined])).toEqual([
      ['failing', undefined],
      ['recovered', 2],
      ['failing', undefined],
      ['recovered', 1],
    ]);
  });

  it('count what is still held as dropped when closing during an outage, and say so', async () => {
    const { db, events, audit, write } = batches(100);
    db.refusing = true;
    await write('a', 'b');
    await audit.close();
    expect(audit.health()).toEqual({ heldRows: 0, droppedRows: 2 });
    expect(events.at(-1)).toMatchObject({ kind: 'closed', dropped: 2 });
    // A row recorded after closing is counted too, never written nor lost silently.
    await write('late');
    expect(audit.health().droppedRows).toBe(3);
    expect(db.rows).toEqual([]);
  });
});
