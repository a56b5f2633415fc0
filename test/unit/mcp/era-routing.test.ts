import type { IncomingMessage } from 'node:http';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isLegacy } from '../../../src/mcp/modern.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (meta?: object) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 't', arguments: {}, ...(meta ? { _meta: meta } : {}) },
});

const CASES: [string, string, Record<string, string>, unknown][] = [
  [
    'initialize',
    'POST',
    {},
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    },
  ],
  ['a 2025 call in a session', 'POST', { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 's' }, call()],
  [
    'a modern call',
    'POST',
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 't' },
    call(ENVELOPE),
  ],
  ['a modern call without headers', 'POST', {}, call(ENVELOPE)],
  ['a malformed envelope', 'POST', {}, call({ 'io.modelcontextprotocol/protocolVersion': 5 })],
  ['a modern header without envelope', 'POST', { 'mcp-protocol-version': '2026-07-28' }, call()],
  ['a 2025 notification', 'POST', {}, { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['a legacy batch', 'POST', {}, [call(), call()]],
  ['a posted response', 'POST', {}, { jsonrpc: '2.0', id: 1, result: {} }],
  [
    'a discover probe',
    'POST',
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } },
  ],
  ['not JSON-RPC', 'POST', {}, { hello: 'world' }],
  ['GET', 'GET', {}, undefined],
  [
    'a 2025 call with a progress token and a string id',
    'POST',
    { 'mcp-protocol-version': '2025-06-18' },
    { ...call({ progressToken: 7 }), id: 'x' },
  ],
  ['a modern header padded with spaces', 'POST', { 'mcp-protocol-version': ' 2026-07-28 ' }, call()],
  ['a future revision in the header', 'POST', { 'mcp-protocol-version': '2027-01-01' }, call(ENVELOPE)],
  ['a fractional id', 'POST', {}, { ...call(), id: 1.5 }],
  ['params that are not an object', 'POST', {}, { ...call(), params: [1] }],
  ['a method beside a result', 'POST', {}, { ...call(), result: {} }],
  ['a _meta that is not an object', 'POST', {}, call('claim' as unknown as object)],
  [
    'an initialize with an envelope claim',
    'POST',
    {},
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
        _meta: ENVELOPE,
      },
    },
  ],
  ['an envelope beside a 2025 header', 'POST', { 'mcp-protocol-version': '2025-11-25' }, call(ENVELOPE)],
  ['an envelope with another method header', 'POST', { 'mcp-method': 'tools/list' }, call(ENVELOPE)],
];

describe('the era of a request', () => {
  it.each(CASES)("%s: decided as the SDK's isLegacyRequest decides", async (_name, method, headers, body) => {
    const req = { method, headers } as unknown as IncomingMessage;
    const request = new Request('http://localhost/api/mcp/mcp', { method, headers });
    expect(isLegacy(req, body)).toBe(await isLegacyRequest(request, body));
  });

  it('is legacy for a body that is not JSON (the 2025 transport answers it)', async () => {
    const req = { method: 'POST', headers: {} } as unknown as IncomingMessage;
    expect(isLegacy(req, undefined)).toBe(true);
    expect(await isLegacyRequest(new Request('http://localhost/', { method: 'POST', body: 'not json' }))).toBe(true);
  });
});
