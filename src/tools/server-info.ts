/** What both protocol eras' servers say about themselves. */
export const SERVER_INFO = Object.freeze({ name: 'specbase', title: 'Specbase', version: '0.1.0' });

export const SERVER_CAPABILITIES = Object.freeze({
  tools: { listChanged: false },
  resources: { subscribe: true, listChanged: false },
  completions: {},
  prompts: { listChanged: false },
});

export const INSTRUCTIONS =
  "Specbase holds this organization's product knowledge as markdown documents: one Product with Capabilities > Features > Requirements > Acceptance Criteria, User Types, Core Entities, and free-form Pages in folders. " +
  'Start with specbase_search or specbase_read_product; read with mode "full" before editing with a unified diff.';

/**
 * Cache hints of the 2026-07-28 revision (`ttlMs`, `cacheScope` on cacheable results; the v2 SDK
 * adds them to modern answers only, never to 2025 ones). The tool list changes only with a new
 * release but depends on the credential and the connection's headers (read-only, tool choice):
 * private. What the server is (discover) is the same for everyone.
 */
export const CACHE_HINTS = Object.freeze({
  'server/discover': { ttlMs: 10 * 60_000, cacheScope: 'public' },
  'tools/list': { ttlMs: 10 * 60_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 10 * 60_000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 10 * 60_000, cacheScope: 'private' },
} as const);
