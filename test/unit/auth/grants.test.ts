import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqlClientsStore } from '../../../src/auth/clients-store.js';
import { mcpResourceFamily } from '../../../src/auth/resource.js';
import { applyAuthSchema } from '../../../src/auth/schema.js';
import { TokenStore } from '../../../src/auth/tokens.js';
import { BACKENDS, controlBackend, type ControlFixture } from '../control/fixture.js';

const BASE = 'http://127.0.0.1:3000';
const RESOURCE = `${BASE}/api/mcp/mcp`;

// The grants' contract: the same listing and revocation whichever backend holds the auth tables.
describe.each(BACKENDS)('OAuth grants (%s)', (backend) => {
  const backendFixture = controlBackend(backend);
  let fx: ControlFixture;
  let tokens: TokenStore;
  let clientId: string;

  beforeEach(async () => {
    fx = await backendFixture.fixture();
    await applyAuthSchema(fx.control.db);
    tokens = new TokenStore(fx.control.db, mcpResourceFamily(BASE), { accessSeconds: 3600, refreshSeconds: 86_400 });
    const client = await sqlClientsStore(fx.control.db).registerClient!({
      client_name: 'Claude Code',
      redirect_uris: ['http://127.0.0.1:33418/callback'],
      token_endpoint_auth_method: 'none',
    } as never);
    clientId = client.client_id;
  });
  afterEach(async () => fx?.cleanup());

  const grant = (familyId: string, userId: string) =>
    tokens.issue({
      familyId,
      clientId,
      userId,
      scopes: ['mcp'],
      resource: RESOURCE,
      redirectUri: 'http://127.0.0.1:33418/callback',
    });

  it("lists a user's live grants with client name, redirect host, creation and last use", async () => {
    const issued = await grant('family-a', 'user-1');
    await grant('family-b', 'user-2');
    const [listed, ...rest] = await tokens.grants.list(['user-1']);
    expect(rest).toEqual([]);
    expect(listed).toMatchObject({
      id: 'family-a',
      userId: 'user-1',
      clientId,
      clientName: 'Claude Code',
      redirectHost: '127.0.0.1:33418',
      lastUsedAt: null,
    });
    expect(Date.parse(listed!.createdAt)).not.toBeNaN();
    expect(await tokens.verify(issued.access_token, new URL(RESOURCE))).toBeDefined();
    expect((await tokens.grants.list(['user-1']))[0]!.lastUsedAt).not.toBeNull();
    expect((await tokens.grants.list(['user-1', 'user-2'])).map((g) => g.id).sort()).toEqual(['family-a', 'family-b']);
  });

  it('revokes only a grant of the given users, and then no token of it works', async () => {
    const issued = await grant('family-a', 'user-1');
    expect(await tokens.grants.revoke('family-a', ['user-2'])).toBe(false);
    expect(await tokens.verify(issued.access_token, new URL(RESOURCE))).toBeDefined();
    expect(await tokens.grants.revoke('family-a', ['user-1'])).toBe(true);
    expect(await tokens.verify(issued.access_token, new URL(RESOURCE))).toBeUndefined();
    await expect(tokens.refresh(clientId, issued.refresh_token!, undefined)).rejects.toThrow();
    expect(await tokens.grants.list(['user-1'])).toEqual([]);
    expect(await tokens.grants.revoke('family-a', ['user-1'])).toBe(false);
  });

  it('keeps one grant across refreshes', async () => {
    const issued = await grant('family-a', 'user-1');
    await tokens.refresh(clientId, issued.refresh_token!, undefined);
    expect((await tokens.grants.list(['user-1'])).map((g) => g.id)).toEqual(['family-a']);
  });
});
