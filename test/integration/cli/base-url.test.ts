import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { ensureBuilt, freePort, startMain, type Started } from '../startup/process.js';

/** The CLI's environment as an operator's shell has it: no PORT, no SPECBASE_BASE_URL. */
const { PORT: _port, SPECBASE_BASE_URL: _base, ...shell } = process.env;

describe('the CLI prints the URLs the running server serves', () => {
  let root: string;
  let dataDir: string;
  let server: Started;
  let port: number;

  const specbase = async (args: string[], env: NodeJS.ProcessEnv = shell) =>
    JSON.parse(
      (await runCli([...args, '--json', '--data-dir', dataDir], { ...env, SPECBASE_LOG_LEVEL: 'silent' })).stdout,
    ) as Record<string, any>;

  beforeAll(async () => {
    await ensureBuilt();
    root = await mkdtemp(path.join(os.tmpdir(), 'specbase-base-url-'));
    dataDir = path.join(root, 'data');
    port = await freePort();
    server = startMain({ SPECBASE_DATA_DIR: dataDir, PORT: String(port), SPECBASE_DEMO: 'on' });
    await server.waitFor('"msg":"listening"', 'stderr');
  }, 180_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('records its base URL in the data directory at start', async () => {
    expect(server.stdout()).toContain(`Specbase is running at http://localhost:${port}`);
    expect((await readFile(path.join(dataDir, 'base-url'), 'utf8')).trim()).toBe(`http://localhost:${port}`);
  });

  it('demo, artifact restore: links on the server port, not the CLI default', async () => {
    const demo = await specbase(['demo']);
    expect(demo.mcpUrl).toBe(`http://localhost:${port}/api/mcp/mcp`);
    expect(demo.sseUrl).toBe(`http://localhost:${port}/api/mcp/sse`);

    const gitdir = path.join(dataDir, 'orgs', `${demo.orgId}.git`);
    const files = execFileSync('git', ['--git-dir', gitdir, 'ls-tree', '-r', '--name-only', 'main'], {
      encoding: 'utf8',
    });
    const feature = files.split('\n').find((f) => f.startsWith('features/'))!;
    const frontmatter = execFileSync('git', ['--git-dir', gitdir, 'show', `main:${feature}`], { encoding: 'utf8' });
    const id = /^id: ["']?([0-9a-f-]{36})/m.exec(frontmatter)![1]!;
    const user = ['--org', demo.orgId, '--id', id, '--user', demo.userEmail];
    await specbase(['artifact', 'delete', ...user, '--recursive']);
    const restored = await specbase(['artifact', 'restore', ...user]);
    expect(restored.url).toBe(`http://localhost:${port}/o/${demo.orgId}/a/${id}`);
    expect((await fetch(restored.url.replace('localhost', '127.0.0.1'), { redirect: 'manual' })).status).not.toBe(404);
  });

  it('SPECBASE_BASE_URL given to the command itself still wins', async () => {
    const demo = await specbase(['demo'], { ...shell, SPECBASE_BASE_URL: 'https://specs.example.com' });
    expect(demo.mcpUrl).toBe('https://specs.example.com/api/mcp/mcp');
  });
});
