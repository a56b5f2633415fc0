import type express from 'express';
import type { CredentialRef, User } from '../control/types.js';
import type { GrantAdmin } from './grants.js';

export type { ConnectedClient, GrantAdmin } from './grants.js';

/** Who is calling an MCP endpoint with an OAuth access token. */
export interface AuthenticatedUser {
  readonly userId: string;
  readonly clientId: string;
  readonly scopes: string[];
  /** Seconds since the epoch. */
  readonly expiresAt?: number;
  readonly via: 'oauth' | 'pat';
  /** The personal access token or the OAuth grant the call came with: what an organization may block in itself. */
  readonly credential: CredentialRef;
  /** The token or grant was created read-only: every connection made with it only reads. */
  readonly readOnly?: boolean;
}

export interface Auth {
  /** Mounted at the application root: OAuth endpoints, metadata, sign-in, consent, embedded provider. */
  readonly router: express.Router;
  /** Undefined for anything that is not a live OAuth access token for this resource. */
  verifyAccessToken(token: string, resource: URL): Promise<AuthenticatedUser | undefined>;
  /** Sets `req.user` from the session cookie when the browser is signed in. */
  readonly webSession: express.RequestHandler;
  /** Sends the browser to sign-in (and back) when `req.user` is not set. */
  readonly requireWebUser: express.RequestHandler;
  /** The assistants users connected through OAuth, to list and revoke. */
  readonly grants: GrantAdmin;
  close(): Promise<void>;
}

/** The signed-in browser's user, with the CSRF token (`csrf.ts`) its sign-out form carries. */
export interface WebUser extends User {
  readonly csrf: string;
}

declare global {
  namespace Express {
    interface Request {
      /** The signed-in web user, set by `Auth.webSession`. */
      user?: WebUser;
    }
  }
}
