import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitStore } from '../../../src/store/index.js';
import type { ChangeContext } from '../../../src/store/types.js';

export const ORG = '0b5e7c1a-3d2f-4e6a-9b8c-1d2e3f4a5b6c';
export const WORKSPACE = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';
export const alice: ChangeContext = {
  author: { name: 'Alice Author', email: 'alice@example.com' },
  client: 'claude-code',
};
export const bob: ChangeContext = { author: { name: 'Bob Builder', email: 'bob@example.com' }, client: 'web' };

/** Runs the git CLI in a repository and returns its trimmed output. */
export const git = (gitdir: string, ...args: string[]): string =>
  execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export interface StoreFixture {
  readonly dataDir: string;
  readonly store: GitStore;
  readonly gitdir: string;
  /** The organization's directory among the store's caches (its saved state). */
  readonly cacheDir: string;
  readonly productId: string;
  close(): Promise<void>;
}

/** A temporary data directory with one organization whose product is "Acme". */
export async function openStoreFixture(): Promise<StoreFixture> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-store-'));
  const store = new GitStore({ dataDir });
  const init = await store.initOrganization(
    ORG,
    { productTitle: 'Acme', productBody: '# Acme\n\nThe product.\n', workspaceId: WORKSPACE },
    alice,
  );
  return {
    dataDir,
    store,
    gitdir: store.gitdir(ORG),
    cacheDir: store.cacheDir(ORG),
    productId: init.artifact.id,
    async close() {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const capabilityInput = (productId: string, title: string) => ({
  type: 'capability' as const,
  parentId: productId,
  workspaceId: WORKSPACE,
  title,
  body: `# ${title}\n\nWhat ${title} lets users do.\n`,
});
