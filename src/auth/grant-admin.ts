import type { SqlDatabase } from '../control/index.js';
import type { GrantAdmin } from './grants.js';
import { mcpResourceFamily } from './resource.js';
import { applyAuthSchema } from './schema.js';
import { DEFAULT_TOKEN_LIFETIMES, TokenStore } from './tokens.js';

/**
 * Grants for the command line, which has the database but runs no authorization server. Its
 * own module: importing the whole auth surface would load the OpenID provider, which talks on
 * stderr, and the CLI's stderr is its error channel.
 */
export async function openGrantAdmin(db: SqlDatabase, baseUrl: string): Promise<GrantAdmin> {
  await applyAuthSchema(db);
  return new TokenStore(db, mcpResourceFamily(baseUrl), DEFAULT_TOKEN_LIFETIMES).grants;
}
