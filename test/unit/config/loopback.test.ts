import { expect, it } from 'vitest';
import { isLoopbackUrl } from '../../../src/config/index.js';

it.each([
  ['http://localhost:3000', true],
  ['http://LOCALHOST.:3000/', true],
  ['http://specbase.localhost', true],
  ['http://127.0.0.1:3000', true],
  ['http://127.8.9.10', true],
  ['http://[::1]:3000', true],
  ['http://[::ffff:127.0.0.1]', true],
  ['https://specs.example.com', false],
  ['http://0.0.0.0:3000', false],
  ['http://10.0.0.5', false],
  ['http://[::]:3000', false],
  ['http://localhost.example.com', false],
])('%s is loopback: %s', (url, loopback) => {
  expect(isLoopbackUrl(url)).toBe(loopback);
});
