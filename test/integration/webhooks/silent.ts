import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Accepts every request and never answers it; counts the requests open at once, per path and in all. */
export interface Silent {
  readonly port: number;
  open: number;
  mostOpen: number;
  readonly openByPath: Map<string, number>;
  mostOpenOnOnePath: number;
  close(): Promise<void>;
}

export async function startSilent(): Promise<Silent> {
  const state = { open: 0, mostOpen: 0, openByPath: new Map<string, number>(), mostOpenOnOnePath: 0 };
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    req.resume();
    state.open += 1;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    const onPath = (state.openByPath.get(url) ?? 0) + 1;
    state.openByPath.set(url, onPath);
    state.mostOpenOnOnePath = Math.max(state.mostOpenOnOnePath, onPath);
    res.on('close', () => {
      state.open -= 1;
      state.openByPath.set(url, (state.openByPath.get(url) ?? 1) - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
