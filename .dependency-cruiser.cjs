/**
 * The one-way dependency rule of STYLE.md, checked on every `npm test`:
 * main/cli/app/web/mcp/git-http -> tools/auth -> domain -> access/search/store/patch/control
 * -> artifacts/config/errors/ids/characters/bounded-memo/sqlite -> threads, launcher.
 */
const TOP = '^src/(main\\.ts|cli|app|web|mcp|git-http|demo)/?';
const lower = (folder, allowed) => ({
  name: `${folder}-stays-low`,
  comment: `${folder} may only import ${allowed.join(', ') || 'nothing of ours'} (and libraries)`,
  severity: 'error',
  from: { path: `^src/${folder}/` },
  to: { path: '^src/', pathNot: [`^src/${folder}/`, ...allowed.map((a) => `^src/${a}`)] },
});

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
    lower('access', ['errors\\.ts', 'ids\\.ts']),
    lower('search', ['artifacts/', 'bounded-memo\\.ts', 'errors\\.ts', 'ids\\.ts', 'config/', 'threads/']),
    lower('store', ['artifacts/', 'bounded-memo\\.ts', 'characters\\.ts', 'errors\\.ts', 'ids\\.ts', 'config/', 'launcher/', 'patch/', 'sqlite/', 'threads/']),
    lower('control', ['access/', 'errors\\.ts', 'ids\\.ts', 'config/', 'sqlite/']),
    lower('domain', ['access/', 'artifacts/', 'config/', 'control/types\\.ts', 'errors\\.ts', 'ids\\.ts', 'patch/', 'search/types\\.ts', 'store/types\\.ts']),
    {
      name: 'tools-and-auth-below-transports',
      severity: 'error',
      from: { path: '^src/(tools|auth)/' },
      to: { path: '^src/(tools|auth)/', pathNot: ['^src/$1/'] },
    },
    {
      name: 'mcp-sdk-only-at-the-edges',
      comment: 'the MCP SDK is imported only by tools, mcp and auth',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(tools|mcp|auth)/' },
      to: { path: '@modelcontextprotocol/sdk' },
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
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
