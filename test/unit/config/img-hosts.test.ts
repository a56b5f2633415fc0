import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';

describe('SPECBASE_IMG_HOSTS', () => {
  it('is empty by default: images only from our own origin and data: URLs', () => {
    expect(loadConfig({}).imgHosts).toEqual([]);
  });

  it('takes https origins, comma-separated, as origins', () => {
    const config = loadConfig({ SPECBASE_IMG_HOSTS: ' https://images.example.com/ , https://CDN.example.org:8443' });
    expect(config.imgHosts).toEqual(['https://images.example.com', 'https://cdn.example.org:8443']);
  });

  it.each([
    'http://images.example.com',
    'https://images.example.com/path',
    'https://*.example.com',
    'images.example.com',
    'https://x.example.com; script-src *',
    'https://user@x.example.com',
  ])('refuses %s', (entry) => {
    expect(() => loadConfig({ SPECBASE_IMG_HOSTS: entry })).toThrow(ConfigError);
    expect(() => loadConfig({ SPECBASE_IMG_HOSTS: entry })).toThrow(/SPECBASE_IMG_HOSTS: .* is not an https origin/);
  });
});
