import { existsSync, readFileSync } from 'node:fs';

/**
 * The largest changelog Debian's `nodejs` package installs (956 KB of real release notes:
 * headings, long lists, tables, links), read where the package put it and never copied into
 * the repository. Without the package, a generated document of the same shape and size.
 */
const INSTALLED = '/usr/share/doc/nodejs/changelogs/CHANGELOG_V12.md';
const LIMIT = 1024 * 1024;

export interface BigDocument {
  readonly source: string;
  readonly text: string;
}

export function bigDocument(): BigDocument {
  if (existsSync(INSTALLED)) {
    const text = readFileSync(INSTALLED, 'utf8');
    if (Buffer.byteLength(text) < LIMIT - 4096) return { source: INSTALLED, text };
  }
  return { source: 'generated', text: generated(LIMIT - 64 * 1024) };
}

function generated(bytes: number): string {
  const parts = ['# Changelog\n'];
  let size = parts[0]!.length;
  for (let release = 1; size < bytes; release++) {
    const section = [
      `\n## 2026-01-${String((release % 28) + 1).padStart(2, '0')}, Version 12.${release}.0\n`,
      '\n### Notable changes\n',
      ...Array.from(
        { length: 40 },
        (_, i) =>
          `\n* [[\`${(release * 97 + i).toString(16).padStart(10, '0')}\`](https://example.com/c/${release}/${i})] - **module${i % 9}**: change number ${i} of release ${release} (Someone) [#${release * 100 + i}](https://example.com/pull/${release * 100 + i})`,
      ),
      '\n\n| Platform | Status |\n| --- | --- |\n| linux | ok |\n| win | ok |\n',
    ].join('');
    parts.push(section);
    size += section.length;
  }
  return parts.join('');
}

/** The start of `text` cut at a line end, about `chars` long: the small page a large one is compared with. */
export const headOf = (text: string, chars: number): string => text.slice(0, text.lastIndexOf('\n', chars) + 1);
