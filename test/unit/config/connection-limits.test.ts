import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';

describe('request timeouts and connections per address', () => {
  it('default to 20 s for headers, 60 s for a whole request, 5 s idle, and 128 connections', () => {
    expect(loadConfig({}).connections).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5_000,
      maxPerAddress: 128,
    });
  });

  it('take fractions of a second, and 0 switches the cap off', () => {
    const env = {
      SPECBASE_HEADERS_TIMEOUT_SECONDS: '0.5',
      SPECBASE_REQUEST_TIMEOUT_SECONDS: '1.5',
      SPECBASE_KEEPALIVE_TIMEOUT_SECONDS: '2',
      SPECBASE_MAX_CONNECTIONS_PER_ADDRESS: '0',
    };
    expect(loadConfig(env).connections).toEqual({
      headersTimeoutMs: 500,
      requestTimeoutMs: 1_500,
      keepAliveTimeoutMs: 2_000,
      maxPerAddress: 0,
    });
  });

  it('refuse a headers timeout longer than the request timeout, and values out of range', () => {
    for (const env of [
      { SPECBASE_HEADERS_TIMEOUT_SECONDS: '90' },
      { SPECBASE_REQUEST_TIMEOUT_SECONDS: '0' },
      { SPECBASE_KEEPALIVE_TIMEOUT_SECONDS: 'never' },
      { SPECBASE_MAX_CONNECTIONS_PER_ADDRESS: '-1' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});
