import express from 'express';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAuth, type Auth, type TokenLifetimes } from '../../../src/auth/index.js';
import { loadConfig, type Config } from '../../../src/config/index.js';
import { openControlPlane, type SqlControlPlane } from '../../../src/control/index.js';
import type { User } from '../../../src/control/types.js';
import { newId } from '../../../src/ids.js';

export interface AuthApp {
  readonly baseUrl: string;
  readonly mcpUrl: string;
  readonly dataDir: string;
  readonly config: Config;
  readonly control: SqlControlPlane;
  readonly auth: Auth;
  readonly server: http.Server;
  close(): Promise<void>;
}

/** A server listening on 127.0.0.1 at an ephemeral port; the handler is attached once the port is known. */
export async function listenLoopback(): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Our auth router on a real express app with the real control plane, plus stand-ins for the
 * MCP routes that answer like the real ones: 401 with the metadata pointer, or who is calling.
 */
export async function startAuthApp(
  options: {
    env?: Record<string, string>;
    tokenLifetimes?: Partial<TokenLifetimes>;
    /** PostgreSQL instead of SQLite. */ databaseUrl?: string;
  } = {},
): Promise<AuthApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-auth-'));
  const { server, port } = await listenLoopback();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ...options.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SPECBASE_DATA_DIR: dataDir,
    SPECBASE_BASE_URL: baseUrl,
  });
  const control = await openControlPlane(
    options.databaseUrl ? { databaseUrl: options.databaseUrl } : { file: path.join(dataDir, 'specbase.db') },
  );
  const auth = await createAuth({
    config,
    control,
    db: control.db,
    dataDir,
    ...(options.tokenLifetimes ? { tokenLifetimes: options.tokenLifetimes } : {}),
  });
  const app = express();
  app.use(auth.webSession);
  const protectedRoute: express.RequestHandler = async (req, res) => {
    const mcpPath = req.path;
    const header = req.get('authorization') ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const user = token ? await auth.verifyAccessToken(token, new URL(`${baseUrl}${mcpPath}`)) : undefined;
    if (!user) {
      res
        .status(401)
        .set('WWW-Authenticate', `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource${mcpPath}"`)
        .json({ error: 'invalid_token' });
      return;
    }
    res.json(user);
  };
  app.all('/api/mcp/mcp', protectedRoute);
  app.all('/api/mcp/o/:orgId/mcp', protectedRoute);
  app.get('/me', auth.requireWebUser, (req, res) => {
    res.json({ id: req.user!.id, issuer: req.user!.issuer, email: req.user!.email, name: req.user!.name });
  });
  app.use(auth.router);
  server.on('request', app);
  return {
    baseUrl,
    mcpUrl: `${baseUrl}/api/mcp/mcp`,
    dataDir,
    config,
    control,
    auth,
    server,
    async close() {
      await closeServer(server);
      await auth.close();
      await control.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function addLocalUser(
  control: SqlControlPlane,
  email: string,
  name: string,
  password: string,
): Promise<User> {
  const user = await control.users.upsert({ issuer: 'local', subject: newId(), email, name });
  await control.users.setPassword(user.id, password);
  return user;
}

export const bearer = (token: string): RequestInit => ({ headers: { authorization: `Bearer ${token}` } });
