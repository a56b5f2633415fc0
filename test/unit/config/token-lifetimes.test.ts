import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';

describe('OAuth token lifetimes', () => {
  it('default to one hour and 30 days, and are settings', () => {
    expect(loadConfig({}).oauthTokens).toEqual({ accessSeconds: 3600, refreshSeconds: 30 * 86_400 });
    expect(loadConfig({ SPECBASE_ACCESS_TOKEN_MINUTES: '15', SPECBASE_REFRESH_TOKEN_DAYS: '7' }).oauthTokens).toEqual({
      accessSeconds: 900,
      refreshSeconds: 7 * 86_400,
    });
  });

  it('refuse values that are not whole numbers in range', () => {
    for (const env of [
      { SPECBASE_ACCESS_TOKEN_MINUTES: '0' },
      { SPECBASE_ACCESS_TOKEN_MINUTES: 'soon' },
      { SPECBASE_REFRESH_TOKEN_DAYS: '366' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});
