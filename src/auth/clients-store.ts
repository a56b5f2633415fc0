import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { CustomOAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SqlDatabase } from '../control/index.js';
import { isClientIdUrl, type ClientDocuments } from './cimd/client-documents.js';
import { clientMetadataSizeProblem } from './client-metadata-limits.js';
import { redirectUriProblem } from './redirect-policy.js';
import { nowSeconds } from './secrets.js';

/**
 * Dynamically registered MCP clients (RFC 7591), and clients named by the URL of their Client ID
 * Metadata Document. Every client is public: it proves itself with PKCE, never with a secret, so
 * no client secret exists to be stored. A document client's latest metadata is kept too, so that
 * listings of connected assistants can name it.
 */
export function sqlClientsStore(db: SqlDatabase, documents?: ClientDocuments): OAuthRegisteredClientsStore {
  return {
    async getClient(clientId) {
      if (documents && isClientIdUrl(clientId)) {
        const client = await documents.resolve(clientId);
        await db.run(
          `INSERT INTO auth_clients (client_id, metadata, created_at) VALUES (?, ?, ?)
           ON CONFLICT (client_id) DO UPDATE SET metadata = excluded.metadata`,
          [clientId, JSON.stringify(client), nowSeconds()],
        );
        return client;
      }
      const row = await db.get<{ metadata: string }>('SELECT metadata FROM auth_clients WHERE client_id = ?', [
        clientId,
      ]);
      return row ? (JSON.parse(row.metadata) as OAuthClientInformationFull) : undefined;
    },
    async registerClient(client) {
      if (client.redirect_uris.length === 0) {
        throw new CustomOAuthError('invalid_redirect_uri', 'at least one redirect URI is required');
      }
      const tooLarge = clientMetadataSizeProblem(client);
      if (tooLarge) throw new CustomOAuthError('invalid_client_metadata', tooLarge);
      for (const uri of client.redirect_uris) {
        const problem = redirectUriProblem(uri);
        if (problem) throw new CustomOAuthError('invalid_redirect_uri', problem);
      }
      const { client_secret: _secret, client_secret_expires_at: _expiry, ...rest } = client;
      const issuedAt = nowSeconds();
      const registered: OAuthClientInformationFull = {
        ...rest,
        client_id: (client as Partial<OAuthClientInformationFull>).client_id ?? crypto.randomUUID(),
        client_id_issued_at: issuedAt,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      };
      await db.run('INSERT INTO auth_clients (client_id, metadata, created_at) VALUES (?, ?, ?)', [
        registered.client_id,
        JSON.stringify(registered),
        issuedAt,
      ]);
      return registered;
    },
  };
}
