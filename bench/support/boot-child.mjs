/**
 * Runs a benchmark child (TypeScript, the script named by the first argument) with tsx's loader
 * registered in this thread alone. Under `--import tsx` every worker thread the child starts
 * inherits the loader too, so the service's threads, which load compiled JavaScript from dist/
 * as `npm start` runs them, would boot through it first.
 */
import { register } from 'tsx/esm/api';

register();
await import(new URL(process.argv[2], import.meta.url).href);
