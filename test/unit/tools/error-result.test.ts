import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PatchError,
  PayloadTooLargeError,
  PermissionDeniedError,
} from '../../../src/errors.js';
import { errorSentence } from '../../../src/tools/index.js';

describe('errorSentence', () => {
  it('says "artifact not found" for any not-found, whatever was missing', () => {
    expect(errorSentence(new NotFoundError())).toBe('artifact not found');
    expect(errorSentence(new NotFoundError('folder'))).toBe('artifact not found');
  });

  it('says "permission denied" whatever the detail', () => {
    expect(errorSentence(new PermissionDeniedError('permission denied: viewers cannot edit'))).toBe(
      'permission denied',
    );
  });

  it('passes on the sentences written for the model', () => {
    const patch = new PatchError('hunk 1 matches nowhere; nearest lines: 3: ## Goals', { hunk: 1, reason: 'no_match' });
    expect(errorSentence(patch)).toBe(patch.message);
    expect(errorSentence(new ConflictError('the feature changed since version abc'))).toBe(
      'the feature changed since version abc',
    );
    expect(errorSentence(new InvalidInputError('limit: too big'))).toBe('limit: too big');
    expect(errorSentence(new PayloadTooLargeError('the patch', 10, 20))).toBe(
      'the patch is 20 bytes; the limit is 10 bytes',
    );
  });

  it('never leaks an unexpected error', () => {
    const sentence = errorSentence(new Error('ENOENT /secret/path'));
    expect(sentence).not.toContain('secret');
    expect(sentence).toMatch(/^internal error/);
  });
});
