import type { Writable } from 'node:stream';

/** Log lines may wait in memory up to this much while the destination is slow; more are dropped. */
const MAX_QUEUED_BYTES = 1024 * 1024;

/**
 * Where log lines go: a Node stream (stderr), written without ever blocking or retrying on the
 * main thread. pino's own destination (sonic-boom) retries EAGAIN in a sleep loop on the main
 * thread, so a log reader that stops reading (a pipe whose reader exited, a stuck collector)
 * froze every request and shutdown. Here a line that cannot be written now is dropped and
 * counted: when the destination is broken (EPIPE and the like) or already holds
 * `maxQueuedBytes` unwritten. When lines flow again, a notice says how many were lost.
 */
export class LogSink {
  #dropped = 0;
  #droppedUnreported = 0;
  #broken = false;

  constructor(
    private readonly stream: Writable,
    private readonly base: Record<string, unknown>,
    private readonly maxQueuedBytes = MAX_QUEUED_BYTES,
  ) {
    // Without a listener an EPIPE on stderr would be an uncaught 'error' event and end the process.
    stream.on('error', () => {
      this.#broken = true;
    });
  }

  /** Log lines dropped since start, because the destination was broken or too far behind. */
  get dropped(): number {
    return this.#dropped;
  }

  write(line: string): void {
    if (!this.#accepting(line.length)) {
      this.#dropped++;
      this.#droppedUnreported++;
      return;
    }
    if (this.#droppedUnreported > 0) {
      this.stream.write(this.#notice(this.#droppedUnreported));
      this.#droppedUnreported = 0;
    }
    this.stream.write(line);
  }

  /** For pino's `flush`: calls back once the queued lines are out, or after at most `limitMs`. */
  flush(callback: (error?: Error) => void = () => {}, limitMs = 1_000): void {
    if (this.stream.writableLength === 0 || !this.#accepting(0)) return callback();
    const done = () => {
      clearTimeout(timer);
      this.stream.off('drain', done);
      callback();
    };
    const timer = setTimeout(done, limitMs);
    timer.unref();
    this.stream.once('drain', done);
  }

  #accepting(bytes: number): boolean {
    if (this.#broken || this.stream.destroyed || !this.stream.writable) return false;
    return this.stream.writableLength + bytes <= this.maxQueuedBytes;
  }

  #notice(count: number): string {
    const msg = `${count} log line${count === 1 ? ' was' : 's were'} dropped: the log destination was not taking them`;
    return `${JSON.stringify({ level: 40, time: Date.now(), ...this.base, droppedLogLines: count, msg })}\n`;
  }
}
