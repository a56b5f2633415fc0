import type { DemoInfo, StartupDemo } from '../demo/seed.js';
import { gitCloneUrl, mcpEndpoints, orgPathUrls } from './endpoints.js';

/**
 * What a newcomer needs to connect an assistant to the demo, ready to paste. Clients sign in
 * through the browser (OAuth), so the configurations carry no secret; the demo's password and
 * access token (for clients without OAuth support and for git) are printed once, by the start
 * that created them. mcp-remote gets the Streamable HTTP URL: it tries Streamable HTTP first, so
 * that URL connects without a failed attempt and a fallback.
 */
export function startupBanner(baseUrl: string, startup: StartupDemo): string {
  const { mcpUrl, sseUrl, readOnlyUrl } = mcpEndpoints(baseUrl);
  const urls = [
    '',
    `Specbase is running at ${baseUrl}`,
    '',
    `  Web application      ${baseUrl}/`,
    `  MCP Streamable HTTP  ${mcpUrl}`,
    `  MCP SSE              ${sseUrl}`,
    `  MCP read-only        ${readOnlyUrl}   (or the header X-Specbase-Readonly: true)`,
    '  MCP tool choice      header X-Specbase-Tools: search,read,list   (tool kinds or tool names)',
    `  Health               ${baseUrl}/healthz`,
    '',
  ];
  if (!startup.demo) {
    return [
      ...urls,
      `No demo organization: ${startup.reason}.`,
      'Create an account and an organization with `npx specbase user add` and `npx specbase org create`,',
      'or the demo with `npx specbase demo`; the Connect page of an organization has client configurations.',
      '',
    ].join('\n');
  }
  return [...urls, ...demoLines(baseUrl, startup.demo, startup.created)].join('\n');
}

function demoLines(baseUrl: string, demo: DemoInfo, created: boolean): string[] {
  const { mcpUrl } = mcpEndpoints(baseUrl);
  const orgHeader = { 'X-Organization-Id': demo.orgId };
  const mcpServers = { mcpServers: { specbase: { type: 'http', url: mcpUrl, headers: orgHeader } } };
  const vscode = { servers: { specbase: { type: 'http', url: mcpUrl, headers: orgHeader } } };
  const bridged = {
    mcpServers: {
      specbase: { command: 'npx', args: ['mcp-remote', mcpUrl, '--header', `X-Organization-Id:${demo.orgId}`] },
    },
  };
  const secrets = created
    ? [
        `  Demo sign-in         ${demo.userEmail} / ${demo.password}`,
        `  Git clone            git clone ${gitCloneUrl(baseUrl, demo.orgId)}   (password: the access token below)`,
        `  Demo access token    ${demo.token}   (for git, and for clients without OAuth: Authorization: Bearer …)`,
        '',
        '  The password and token are printed this once; `npx specbase demo` shows them again.',
      ]
    : [
        `  Demo sign-in         ${demo.userEmail}   (password and access token: \`npx specbase demo\`)`,
        `  Git clone            git clone ${gitCloneUrl(baseUrl, demo.orgId)}   (password: a personal access token)`,
      ];
  return [
    `  Organization         ${demo.orgName}`,
    `  Organization id      ${demo.orgId}`,
    ...secrets,
    '',
    'Client configuration, Streamable HTTP, "mcpServers" form (Claude Code .mcp.json, Cursor mcp.json and most clients);',
    'the client opens the browser to sign in on first use:',
    JSON.stringify(mcpServers, null, 2),
    '',
    'VS Code (.vscode/mcp.json) uses the "servers" form:',
    JSON.stringify(vscode, null, 2),
    '',
    'Client configuration through the stdio bridge (Claude Desktop and other stdio-only clients):',
    JSON.stringify(bridged, null, 2),
    '',
    `Or as one command:  npx mcp-remote ${mcpUrl} --header X-Organization-Id:${demo.orgId}`,
    `Clients that cannot send headers: the organization in the path, ${orgPathUrls(baseUrl, demo.orgId).mcpUrl}`,
    `  and read-only as well: ${orgPathUrls(baseUrl, demo.orgId).readOnlyUrl}`,
    ...(created
      ? [
          `With the access token instead of browser sign-in:  npx mcp-remote ${mcpUrl} --header X-Organization-Id:${demo.orgId} --header "Authorization:Bearer ${demo.token}"`,
        ]
      : []),
    '',
  ];
}
