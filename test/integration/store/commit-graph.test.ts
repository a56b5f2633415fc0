import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fastImport } from '../../support/seed.js';
import { organizationArtifacts, type SeedArtifact } from '../../support/org-shape.js';
import { GitStore } from '../../../src/store/index.js';
import { bob, git as gitIn, ORG, WORKSPACE } from './fixture.js';

/** Above the size from which the store has git write changed-path filters. */
const ARTIFACTS = 1_200;

let dataDir: string;
let gitdir: string;
let artifacts: SeedArtifact[];
const stores: GitStore[] = [];
const git = (...args: string[]) => gitIn(gitdir, ...args);
const chainFile = () => path.join(gitdir, 'objects', 'info', 'commit-graphs', 'commit-graph-chain');

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-graph-'));
  const store = new GitStore({ dataDir });
  gitdir = store.gitdir(ORG);
  artifacts = organizationArtifacts(ARTIFACTS, WORKSPACE);
  fastImport(gitdir, artifacts);
  // A few commits after the first, so that a path's history has commits to skip.
  for (const artifact of artifacts.slice(1, 4)) {
    await store.update(ORG, artifact.id, { body: `# ${artifact.title}\n\nEdited.\n`, verb: 'edit' }, bob);
  }
  await store.close();
  // As a repository that never had them: no saved state, no commit-graph.
  await rm(store.cacheDir(ORG), { recursive: true, force: true });
  await rm(path.join(gitdir, 'objects', 'info', 'commit-graphs'), { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await rm(dataDir, { recursive: true, force: true });
});

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('has git write changed-path filters once a large organization is open, and git log uses them', async () => {
  expect(existsSync(chainFile())).toBe(false);
  const store = new GitStore({ dataDir });
  stores.push(store);
  const untouched = artifacts[10]!;
  expect((await store.read(ORG, untouched.id)).title).toBe(untouched.title);
  await until(() => existsSync(chainFile()), 30_000);
  git('commit-graph', 'verify');
  const trace = path.join(dataDir, 'trace.json');
  execFileSync('git', ['--git-dir', gitdir, 'log', '--format=%H', 'main', '--', untouched.path], {
    env: { ...process.env, GIT_TRACE2_EVENT: trace },
  });
  const bloom = readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { category?: string; key?: string; value?: { definitely_not?: number } })
    .find((event) => event.category === 'bloom' && event.key === 'statistics');
  // The three edits did not touch the file: the filters rule each of them out without a diff.
  expect(bloom?.value?.definitely_not).toBe(3);
});

it('stops a write under way when the store closes, leaving no lock and a valid repository', async () => {
  const store = new GitStore({ dataDir });
  await store.read(ORG, artifacts[10]!.id);
  await store.close();
  const infoDir = path.join(gitdir, 'objects', 'info');
  const leftovers = existsSync(infoDir) ? execFileSync('find', [infoDir, '-name', '*.lock'], { encoding: 'utf8' }) : '';
  expect(leftovers).toBe('');
  git('fsck', '--connectivity-only', '--no-progress');
  if (existsSync(chainFile())) git('commit-graph', 'verify');
});
