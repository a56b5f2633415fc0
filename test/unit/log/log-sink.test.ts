import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LogSink } from '../../../src/log-sink.js';

/** A destination whose reader takes nothing until `release()`, as a stuck log collector. */
function stuckDestination() {
  const written: string[] = [];
  const pending: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      pending.push(callback);
    },
  });
  /** The reader takes everything, however many turns the stream needs to hand it over. */
  const drain = async () => {
    while (pending.length > 0 || stream.writableLength > 0) {
      pending.splice(0).forEach((done) => done());
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { stream, written, drain };
}

describe('LogSink', () => {
  it('drops and counts lines beyond what may wait, then says how many were lost once lines flow again', async () => {
    const { stream, written, drain } = stuckDestination();
    const sink = new LogSink(stream, { service: 'test' }, 30);
    for (let i = 0; i < 5; i++) sink.write(`{"n":${i}}\n`);
    expect(sink.dropped).toBe(2);
    await drain();
    sink.write('{"n":5}\n');
    await drain();
    const lines = written
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.n ?? line.droppedLogLines)).toEqual([0, 1, 2, 2, 5]);
    expect(lines[3]).toMatchObject({
      level: 40,
      service: 'test',
      droppedLogLines: 2,
      msg: '2 log lines were dropped: the log destination was not taking them',
    });
    expect(sink.dropped).toBe(2);
  });

  it('a destination that failed (EPIPE) is never written again: every line is dropped and counted', async () => {
    const stream = new Writable({
      write: (_chunk, _encoding, callback) => callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    });
    const sink = new LogSink(stream, {});
    sink.write('first\n');
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 3; i++) sink.write('more\n');
    expect(sink.dropped).toBe(3);
  });

  it('flush calls back after its limit even when the destination never drains', async () => {
    const { stream } = stuckDestination();
    const sink = new LogSink(stream, {});
    sink.write('x'.repeat(100));
    const t0 = performance.now();
    await new Promise<void>((resolve) => sink.flush(() => resolve(), 50));
    expect(performance.now() - t0).toBeLessThan(1_000);
  });
});
