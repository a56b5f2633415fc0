import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';

it('keeps caches in <data dir>/cache unless SPECBASE_CACHE_DIR names a directory of their own', () => {
  expect(loadConfig({ SPECBASE_DATA_DIR: '/srv/specbase' }).cacheDir).toBe(path.resolve('/srv/specbase/cache'));
  expect(loadConfig({}).cacheDir).toBe(path.resolve('data/cache'));
  expect(loadConfig({ SPECBASE_DATA_DIR: '/mnt/shared', SPECBASE_CACHE_DIR: '/var/cache/specbase' }).cacheDir).toBe(
    '/var/cache/specbase',
  );
  expect(loadConfig({ SPECBASE_CACHE_DIR: 'cache-a' }).cacheDir).toBe(path.resolve('cache-a'));
});
