import { describe, expect, it } from 'vitest';
import { matchMcpRoute } from '../../../src/mcp/routes.js';

const ORG = '3f2b8c1e-5d4a-4b6f-9e7d-1a2b3c4d5e6f';

describe('matchMcpRoute', () => {
  it.each([
    ['/api/mcp/mcp', 'mcp', undefined],
    ['/api/mcp/sse', 'sse', undefined],
    ['/api/mcp/messages', 'messages', undefined],
    [`/api/mcp/o/${ORG}/mcp`, 'mcp', ORG],
    [`/api/mcp/o/${ORG}/sse`, 'sse', ORG],
    [`/api/mcp/o/${ORG}/messages`, 'messages', ORG],
  ])('%s is the %s endpoint', (url, kind, orgIdInPath) => {
    const route = matchMcpRoute(url);
    expect(route?.kind).toBe(kind);
    expect(route?.orgIdInPath).toBe(orgIdInPath);
    expect(route?.path).toBe(url);
  });

  it('keeps the query apart from the path', () => {
    const route = matchMcpRoute('/api/mcp/messages?sessionId=abc&x=1');
    expect(route?.path).toBe('/api/mcp/messages');
    expect(route?.query.get('sessionId')).toBe('abc');
  });

  it('accepts a trailing slash and any case, as the express routes before it did', () => {
    expect(matchMcpRoute('/api/mcp/mcp/')?.kind).toBe('mcp');
    expect(matchMcpRoute('/API/MCP/SSE')?.kind).toBe('sse');
  });

  it('decodes the organization in the path, and keeps a malformed escape as sent', () => {
    expect(matchMcpRoute(`/api/mcp/o/${ORG.replace('-', '%2D')}/mcp`)?.orgIdInPath).toBe(ORG);
    expect(matchMcpRoute('/api/mcp/o/%E0%A4%A/mcp')?.orgIdInPath).toBe('%E0%A4%A');
  });

  it.each([
    '/',
    '/api/mcp',
    '/api/mcp/other',
    '/api/mcp/o/x/y/mcp',
    '/api/mcp/mcpx',
    '/x/api/mcp/mcp',
    '/api/mcp/o//mcp',
  ])('%s is no MCP endpoint', (url) => {
    expect(matchMcpRoute(url)).toBeUndefined();
  });
});
