import { SpecbaseError } from '../errors.js';
import { parseSourceDocument } from '../store/index.js';
import type { ImportSource } from '../domain/index.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One file as the import takes it: decoded as UTF-8 (or why not), frontmatter fields and body. */
export function importSourceOf(path: string, bytes: Uint8Array): ImportSource {
  let text: string;
  try {
    text = utf8.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return { path, bytes: bytes.length, problem: 'the file is not UTF-8 text' };
  }
  try {
    const { fields, body } = parseSourceDocument(text.replace(/\r\n/g, '\n'), path);
    return { path, bytes: bytes.length, fields, body };
  } catch (error) {
    if (error instanceof SpecbaseError) return { path, bytes: bytes.length, problem: error.message };
    throw error;
  }
}
