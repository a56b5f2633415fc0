import type { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import type { Config } from './config/index.js';
import { LogSink } from './log-sink.js';

export type { Logger };

const BASE = { service: 'specbase' };

/**
 * Structured JSON logs on stderr, so stdout stays free for what a command prints. Lines that
 * stderr cannot take are dropped and counted (see LogSink), never retried on the main thread.
 */
export const createLogger = (level: Config['logLevel'], destination: Writable = process.stderr): Logger =>
  pino({ level, base: BASE }, new LogSink(destination, BASE));

/** The sink a logger made by createLogger writes to (pino keeps its destination under this symbol). */
function sinkOf(log: Logger): LogSink | undefined {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  return stream instanceof LogSink ? stream : undefined;
}

/** How many log lines were dropped since start because the destination did not take them. */
export const droppedLogLines = (log: Logger): number => sinkOf(log)?.dropped ?? 0;

/** Waits (at most `limitMs`) until written log lines have left the process. */
export const flushLog = (log: Logger, limitMs = 1_000): Promise<void> =>
  new Promise((resolve) => {
    const sink = sinkOf(log);
    if (sink) sink.flush(() => resolve(), limitMs);
    else resolve();
  });
