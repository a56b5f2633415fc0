import { buffersOf, packText, unpackText } from '../threads/packed-text.js';
import { ThreadClient } from '../threads/thread-client.js';
import { renderMarkdownParts } from './markdown.js';

/**
 * Documents this short are rendered where they are (a few milliseconds). A 1 MiB changelog took
 * 0.7-1.8 s to parse and 0.5 s more to sanitize on a 2-core machine: on the event loop that
 * held every other request for as long.
 */
const INLINE_CHARS = 32 * 1024;

export type RenderRequest = { readonly markdown: Uint8Array };
export type RenderReply =
  { readonly ok: true; readonly parts: Uint8Array[] } | { readonly ok: false; readonly message: string };

const renderThread = new ThreadClient<RenderRequest, RenderReply>({
  callerUrl: import.meta.url,
  worker: 'markdown-thread.worker',
  name: 'the markdown thread',
});

/** Whether renderMarkdownOffLoop sends the document to the thread (a short one is rendered at once, where it is). */
export const rendersOffLoop = (markdown: string): boolean => markdown.length >= INLINE_CHARS;

/**
 * renderMarkdownParts, off the event loop when the document is long. The thread keeps the parts
 * it rendered (see PartRenderer): the next version of a long document renders only what changed.
 */
export async function renderMarkdownOffLoop(markdown: string): Promise<string[]> {
  if (!rendersOffLoop(markdown)) return renderMarkdownParts(markdown);
  const packed = packText(markdown);
  const reply = await renderThread.send({ markdown: packed }, buffersOf(packed));
  if (!reply.ok) throw new Error(`the markdown thread failed: ${reply.message}`);
  return reply.parts.map(unpackText);
}
