import { describe, expect, it } from 'vitest';
import { aliasesLine, statedAliases } from '../../../src/artifacts/index.js';
import { withNames } from '../../../src/domain/import-fields.js';

describe('the aliases line', () => {
  it('reads back the aliases the import writes under the heading', () => {
    expect(aliasesLine(['Foo Bar', 'Baz'])).toBe('**Aliases:** Foo Bar, Baz');
    const body = withNames('# Getting started\n\nRead this first.\n', ['Foo Bar', 'Baz'], ['howto']);
    expect(statedAliases(body)).toEqual(['Foo Bar', 'Baz']);
    expect(statedAliases(withNames('Read this first.\n', ['Onboarding'], []))).toEqual(['Onboarding']);
  });

  it('reads the first line only, as written by hand too, and finds none without one', () => {
    expect(statedAliases('# T\n\n  **Aliases:**Foo ,  Bar,, \r\n\n**Aliases:** Later\n')).toEqual(['Foo', 'Bar']);
    expect(statedAliases('# T\n\n**Aliases:**\n\nBody\n')).toEqual([]);
    expect(statedAliases('# T\n\nAliases: Foo\n')).toEqual([]);
    expect(statedAliases('# T\n\nSee the **Aliases:** line.\n')).toEqual([]);
    expect(statedAliases('# T\n\n**Tags:** Foo\n')).toEqual([]);
  });
});
