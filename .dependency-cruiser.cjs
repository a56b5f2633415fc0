/**
 * The one-way dependency rule of STYLE.md, checked on every `npm test`:
 * main/cli/app/web/mcp/git-http -> tools/auth/transfer -> domain -> access/search/store/patch/control
 * -> artifacts/config/errors/ids/characters/bounded-memo/sqlite -> threads, launcher.
 * webhooks (delivery) sits on control and net (outbound requests), which imports nothing of ours.
 * Inside store/, folders by concern, one way: git, layout -> catalog -> persist -> org -> write
 * -> branches, receive -> git-store.ts; each folder is reached through its index.ts, and the rest of src/ reaches the
 * store through store/index.ts (or the types in store/types.ts).
 */
const TOP = '^src/(main\\.ts|cli|app|web|mcp|git-http|demo)/?';
const lower = (folder, allowed) => ({
  name: `${folder}-stays-low`,
  comment: `${folder} may only import ${allowed.join(', ') || 'nothing of ours'} (and libraries)`,
  severity: 'error',
  from: { path: `^src/${folder}/` },
  to: { path: '^src/', pathNot: [`^src/${folder}/`, ...allowed.map((a) => `^src/${a}`)] },
});

/** The store's folders, lowest first: each may import only those before it, through their index.ts. */
const STORE_FOLDERS = [['git', 'layout'], ['catalog'], ['persist'], ['org'], ['write'], ['branches', 'receive']];
const storeFolder = (folder, below) => ({
  name: `store-${folder}-stays-low`,
  comment: `store/${folder} may only import store/types.ts and the index.ts of ${below.join(', ') || 'no other store folder'}`,
  severity: 'error',
  from: { path: `^src/store/${folder}/` },
  to: {
    path: '^src/store/',
    pathNot: [`^src/store/${folder}/`, '^src/store/types\\.ts$', ...below.map((b) => `^src/store/${b}/index\\.ts$`)],
  },
});
const storeFolderRules = STORE_FOLDERS.flatMap((level, i) =>
  level.map((folder) => storeFolder(folder, STORE_FOLDERS.slice(0, i).flat())),
);

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'nothing-reaches-the-top',
      comment: 'composition and transports are imported by nobody below them',
      severity: 'error',
      from: { path: '^src/', pathNot: TOP },
      to: { path: TOP },
    },
    lower('patch', ['errors\\.ts', 'characters\\.ts', 'threads/']),
    lower('artifacts', []),
    lower('config', []),
    lower('limits', []),
    lower('threads', ['module-beside\\.ts']),
    lower('launcher', ['module-beside\\.ts']),
    lower('sqlite', ['threads/']),
    lower('net', []),
    lower('webhooks', ['control/', 'config/', 'errors\\.ts', 'ids\\.ts', 'net/']),
    lower('access', ['errors\\.ts', 'ids\\.ts']),
    lower('search', ['artifacts/', 'bounded-memo\\.ts', 'errors\\.ts', 'ids\\.ts', 'config/', 'threads/']),
    lower('store', [
      'artifacts/',
      'bounded-memo\\.ts',
      'characters\\.ts',
      'errors\\.ts',
      'ids\\.ts',
      'config/',
      'launcher/',
      'patch/',
      'sqlite/',
      'threads/',
    ]),
    ...storeFolderRules,
    {
      name: 'store-top-through-folder-indexes',
      comment: 'git-store.ts and index.ts reach a store folder through its index.ts',
      severity: 'error',
      from: { path: '^src/store/[^/]+$' },
      to: { path: '^src/store/[^/]+/', pathNot: '^src/store/[^/]+/index\\.ts$' },
    },
    {
      name: 'store-through-its-index',
      comment: 'outside the store, code imports store/index.ts (or the types in store/types.ts)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/', pathNot: '^src/store/(index|types)\\.ts$' },
    },
    lower('control', ['access/', 'errors\\.ts', 'ids\\.ts', 'config/', 'sqlite/']),
    lower('transfer', ['domain/', 'store/index\\.ts', 'errors\\.ts']),
    lower('domain', [
      'access/',
      'artifacts/',
      'bounded-memo\\.ts',
      'config/',
      'control/types\\.ts',
      'errors\\.ts',
      'ids\\.ts',
      'patch/',
      'search/types\\.ts',
      'store/types\\.ts',
    ]),
    {
      name: 'tools-and-auth-below-transports',
      severity: 'error',
      from: { path: '^src/(tools|auth)/' },
      to: { path: '^src/(tools|auth)/', pathNot: ['^src/$1/'] },
    },
    {
      name: 'mcp-sdk-only-at-the-edges',
      comment: 'the MCP SDKs (1.x and the v2 server) are imported only by tools, mcp and auth',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(tools|mcp|auth)/' },
      to: { path: '@modelcontextprotocol/(sdk|server)' },
    },
    {
      name: 'express-only-at-the-edges',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app|mcp|web|auth|git-http)/' },
      to: { path: '^express$|node_modules/express/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
