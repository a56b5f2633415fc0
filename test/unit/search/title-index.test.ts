import { describe, expect, it } from 'vitest';
import { termsOf } from '../../../src/search/analyzer.js';
import { TitleIndex } from '../../../src/search/title-index.js';

/** A name's key as a query for it makes it: analyzed, then joined. */
const key = (name: string): string => TitleIndex.keyOf(termsOf(name));
const names = (...each: string[]): string[][] => each.map(termsOf);

describe('TitleIndex: every name of a document is a key', () => {
  it('finds a document by its title and by each alias, however they are written', () => {
    const titles = new TitleIndex();
    titles.set(1, names('Getting started', 'Onboarding', 'Foo Bar'));
    titles.set(2, names('Release process'));
    expect(titles.holding(key('Getting started'))).toEqual([1]);
    expect(titles.holding(key('onboarding'))).toEqual([1]);
    expect(titles.holding(key('Foo-Bar'))).toEqual([1]);
    expect(titles.holding(key('FOO BARS'))).toEqual([1]);
    expect(titles.holding(key('release process'))).toEqual([2]);
    expect(titles.holding(key('foo'))).toEqual([]);
  });

  it('lists a document once under a key two of its names share', () => {
    const titles = new TitleIndex();
    titles.set(1, names('File system', 'file-systems', 'File System'));
    expect(titles.holding(key('file system'))).toEqual([1]);
  });

  it('lists every document holding a key, and never one under an empty key', () => {
    const titles = new TitleIndex();
    titles.set(1, names('Dispatcher', 'Pool'));
    titles.set(2, names('Pool'));
    titles.set(3, names('The', 'a'));
    expect(titles.holding(key('pool'))).toEqual([1, 2]);
    expect(titles.holding('')).toEqual([]);
  });

  it('replaces all of a document’s names when they are set again', () => {
    const titles = new TitleIndex();
    titles.set(1, names('Getting started', 'Onboarding', 'Foo Bar'));
    titles.set(2, names('Onboarding'));
    titles.set(1, names('Getting started', 'Handbook'));
    expect(titles.holding(key('Foo Bar'))).toEqual([]);
    expect(titles.holding(key('Onboarding'))).toEqual([2]);
    expect(titles.holding(key('Handbook'))).toEqual([1]);
    expect(titles.holding(key('Getting started'))).toEqual([1]);
    titles.set(1, names('Getting started'));
    expect(titles.holding(key('Handbook'))).toEqual([]);
    expect(titles.holding(key('Getting started'))).toEqual([1]);
  });

  it('forgets every name of a removed document, and only its', () => {
    const titles = new TitleIndex();
    titles.set(1, names('Getting started', 'Onboarding', 'Foo Bar'));
    titles.set(2, names('Foo Bar'));
    titles.remove(1);
    expect(titles.holding(key('Getting started'))).toEqual([]);
    expect(titles.holding(key('Onboarding'))).toEqual([]);
    expect(titles.holding(key('Foo Bar'))).toEqual([2]);
    titles.remove(1);
    titles.remove(2);
    expect(titles.holding(key('Foo Bar'))).toEqual([]);
  });
});
