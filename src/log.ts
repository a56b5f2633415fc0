import pino, { type Logger } from 'pino';
import type { Config } from './config/index.js';

export type { Logger };

/** Structured JSON logs on stderr, so stdout stays free for what a command prints. */
export const createLogger = (level: Config['logLevel']): Logger =>
  pino({ level, base: { service: 'specbase' } }, pino.destination({ dest: 2, sync: false }));
