import type { DemoInfo } from '../demo/seed.js';
import { gitCloneUrl, mcpEndpoints } from './endpoints.js';

/** What a newcomer needs to connect an assistant to the demo, ready to paste. */
export function startupBanner(baseUrl: string, demo: DemoInfo): string {
  const { mcpUrl, sseUrl } = mcpEndpoints(baseUrl);
  const streamable = {
    mcpServers: {
      specbase: {
        type: 'http',
        url: mcpUrl,
        headers: { 'X-Organization-Id': demo.orgId, Authorization: `Bearer ${demo.token}` },
      },
    },
  };
  const bridged = {
    mcpServers: {
      specbase: {
        command: 'npx',
        args: ['mcp-remote', sseUrl, '--header', `X-Organization-Id:${demo.orgId}`, '--header', `Authorization:Bearer ${demo.token}`],
      },
    },
  };
  return [
    '',
    `Specbase is running at ${baseUrl}`,
    '',
    `  Web application      ${baseUrl}/`,
    `  MCP Streamable HTTP  ${mcpUrl}`,
    `  MCP SSE              ${sseUrl}`,
    `  Health               ${baseUrl}/healthz`,
    '',
    `  Organization         ${demo.orgName}`,
    `  Organization id      ${demo.orgId}`,
    `  Demo sign-in         ${demo.userEmail} / ${demo.password}`,
    `  Demo access token    ${demo.token}`,
    `  Git clone            git clone ${gitCloneUrl(baseUrl, demo.orgId)}   (password: the access token)`,
    '',
    'Client configuration, Streamable HTTP (Claude Code, Cursor, VS Code and other clients that set headers):',
    JSON.stringify(streamable, null, 2),
    '',
    'Client configuration through the stdio bridge (Claude Desktop and other stdio-only clients):',
    JSON.stringify(bridged, null, 2),
    '',
    'Or as one command:',
    `  npx mcp-remote ${sseUrl} --header X-Organization-Id:${demo.orgId} --header "Authorization:Bearer ${demo.token}"`,
    '',
  ].join('\n');
}
