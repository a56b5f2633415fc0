import { auth, extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** The SDK's OAuthClientProvider kept in memory, as an MCP client would keep it on disk. */
export class MemoryClientProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test MCP Client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What an MCP client learns from the 401 of the MCP endpoint. */
export async function discoverFrom401(mcpUrl: string): Promise<URL> {
  const response = await fetch(mcpUrl, { method: 'POST' });
  if (response.status !== 401) throw new Error(`expected 401, got ${response.status}`);
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(response);
  if (!resourceMetadataUrl) throw new Error('401 without resource_metadata');
  return resourceMetadataUrl;
}

export { auth };
