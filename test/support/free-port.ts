import net from 'node:net';

/**
 * Ports handed out lie below Linux's ephemeral range (32768-60999): a port the kernel picked
 * for `listen(0)` and we released could be picked again for another file's server or for an
 * outgoing connection before the process we started binds it ("Address already in use" from
 * HAProxy, seen with four test workers). Below the range only explicit binds land, and each
 * vitest worker draws from a slice of its own.
 */
const FIRST_PORT = 20_000;
const SLICE = 1_000;
const SLICES = 12;

const slice = (Number(process.env.VITEST_POOL_ID ?? process.pid) % SLICES) * SLICE;
let next = 0;

/** A loopback port nobody listens on right now, for a server started in another process. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < SLICE; tried += 1) {
    const port = FIRST_PORT + slice + (next++ % SLICE);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free loopback port in ${FIRST_PORT + slice}-${FIRST_PORT + slice + SLICE - 1}`);
}

async function bindable(port: number): Promise<boolean> {
  const server = net.createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}
