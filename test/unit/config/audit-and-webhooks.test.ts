import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';

describe('audit retention and webhook delivery settings', () => {
  it('keep the audit log a year and retry a webhook after 30 s, with no extra CA and no loopback allowance, unless set', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    expect(loadConfig({}).webhooks).toEqual({ firstRetryMs: 30_000 });
    expect(loadConfig({ SPECBASE_AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    expect(
      loadConfig({
        SPECBASE_WEBHOOK_RETRY_SECONDS: '0.5',
        SPECBASE_WEBHOOK_CA_FILE: '/ca.pem',
        SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST: '127.0.0.1:8443',
      }).webhooks,
    ).toEqual({ firstRetryMs: 500, caFile: '/ca.pem', allowLoopbackHost: '127.0.0.1:8443' });
  });

  it('refuse a retention that is not a whole number of days, and a retry pause that is not positive', () => {
    for (const env of [
      { SPECBASE_AUDIT_RETENTION_DAYS: '0' },
      { SPECBASE_AUDIT_RETENTION_DAYS: 'forever' },
      { SPECBASE_WEBHOOK_RETRY_SECONDS: '0' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});
