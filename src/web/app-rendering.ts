import type { AppRendering } from '../tools/index.js';
import { renderMarkdown, withoutTitleHeading } from './markdown.js';
import { diffTable } from './views/diff.js';

/**
 * The MCP Apps show documents and diffs with the web application's own renderers: one
 * sanitizer, one word-level diff, whichever surface a person reviews a change on.
 */
export const appRendering: AppRendering = Object.freeze({
  markdown: (body: string, title: string) => renderMarkdown(withoutTitleHeading(body, title)).value,
  diff: (diff: string, caption: string) => diffTable(diff, caption).value,
});
