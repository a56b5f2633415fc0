import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';

describe('audit retention and webhook delivery settings', () => {
  it('keep the audit log a year and retry a webhook after 30 s, with no extra CA and no loopback allowance, unless set', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    expect(loadConfig({}).webhooks).toEqual({
      firstRetryMs: 30_000,
      allowLocalhost: false,
      maxEndpoints: 50,
      maxInFlightPerEndpoint: 1,
      maxQueuedPerEndpoint: 10_000,
      maxInFlight: 64,
    });
    expect(loadConfig({ SPECBASE_AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    expect(
      loadConfig({
        SPECBASE_WEBHOOK_RETRY_SECONDS: '0.5',
        SPECBASE_WEBHOOK_CA_FILE: '/ca.pem',
        SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST: '127.0.0.1:8443',
      }).webhooks,
    ).toMatchObject({ firstRetryMs: 500, caFile: '/ca.pem', allowLoopbackHost: '127.0.0.1:8443' });
    expect(
      loadConfig({
        SPECBASE_WEBHOOK_MAX_ENDPOINTS: '5',
        SPECBASE_WEBHOOK_ENDPOINT_CONCURRENCY: '3',
        SPECBASE_WEBHOOK_MAX_QUEUED: '100',
        SPECBASE_WEBHOOK_CONCURRENCY: '8',
      }).webhooks,
    ).toMatchObject({ maxEndpoints: 5, maxInFlightPerEndpoint: 3, maxQueuedPerEndpoint: 100, maxInFlight: 8 });
  });

  it('let localhost receivers through only when asked, and only on a local sandbox', () => {
    expect(loadConfig({ SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on' }).webhooks.allowLocalhost).toBe(true);
    expect(
      loadConfig({ SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on', SPECBASE_BASE_URL: 'http://127.0.0.1:4000' }).webhooks
        .allowLocalhost,
    ).toBe(true);
    expect(() =>
      loadConfig({ SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on', SPECBASE_BASE_URL: 'https://specs.example.com' }),
    ).toThrow(/SPECBASE_WEBHOOK_ALLOW_LOCALHOST is for a local sandbox/);
  });

  it('refuse a retention that is not a whole number of days, and a retry pause that is not positive', () => {
    for (const env of [
      { SPECBASE_AUDIT_RETENTION_DAYS: '0' },
      { SPECBASE_AUDIT_RETENTION_DAYS: 'forever' },
      { SPECBASE_WEBHOOK_RETRY_SECONDS: '0' },
      { SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'yes' },
      { SPECBASE_WEBHOOK_ENDPOINT_CONCURRENCY: '0' },
      { SPECBASE_WEBHOOK_CONCURRENCY: '1' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});
