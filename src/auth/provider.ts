import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidTargetError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CodeStore } from './codes.js';
import type { ResourceFamily } from './resource.js';
import type { TokenStore } from './tokens.js';

export const MCP_SCOPE = 'mcp';
export const CONSENT_PATH = '/oauth/consent';

/**
 * Our authorization server behind the SDK's handlers. The SDK validates client, redirect URI
 * and PKCE parameters (S256 only); this class stores the request, sends the browser to sign-in
 * and consent, and keeps codes and tokens.
 */
export class SpecbaseOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;
  readonly #codes: CodeStore;
  readonly #tokens: TokenStore;
  readonly #family: ResourceFamily;
  readonly #baseUrl: string;

  constructor(deps: {
    clients: OAuthRegisteredClientsStore;
    codes: CodeStore;
    tokens: TokenStore;
    family: ResourceFamily;
    baseUrl: string;
  }) {
    this.clientsStore = deps.clients;
    this.#codes = deps.codes;
    this.#tokens = deps.tokens;
    this.#family = deps.family;
    this.#baseUrl = deps.baseUrl;
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const resource = params.resource?.href ?? this.#family.defaultResource;
    if (!this.#family.familyOf(resource)) {
      throw new InvalidTargetError(`resource ${resource} is not served by this authorization server`);
    }
    const requestId = await this.#codes.savePending({
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      ...(params.state !== undefined ? { state: params.state } : {}),
      // One scope covers the MCP API; the user's roles decide what each call may do.
      scopes: [MCP_SCOPE],
      resource,
    });
    res.redirect(302, `${this.#baseUrl}${CONSENT_PATH}?request=${encodeURIComponent(requestId)}`);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    return this.#codes.challengeFor(client.client_id, authorizationCode);
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    authorizationCode: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    return this.#tokens.issue(await this.#codes.redeem(client.client_id, authorizationCode, redirectUri, resource));
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    return this.#tokens.refresh(client.client_id, refreshToken, resource);
  }

  /** Used by the SDK's own bearer middleware; our MCP routes call `Auth.verifyAccessToken` with the resource. */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const user = await this.#tokens.verify(token, new URL(this.#family.defaultResource));
    if (!user) throw new InvalidTokenError('invalid or expired access token');
    return {
      token,
      clientId: user.clientId,
      scopes: user.scopes,
      ...(user.expiresAt ? { expiresAt: user.expiresAt } : {}),
      extra: { userId: user.userId },
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    await this.#tokens.revoke(client.client_id, request.token);
  }
}
