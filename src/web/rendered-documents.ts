import { html, trusted, type SafeHtml } from './html.js';
import { Lru } from './lru.js';
import { withoutTitleHeading } from './markdown.js';
import { renderMarkdownOffLoop, rendersOffLoop } from './markdown-thread.js';

/** Versions rendered ahead of their readers at once, at most (see prepare). */
const MAX_PREPARING = 2;

/**
 * A version of a document never changes, and a long one is the costliest thing a page shows:
 * each is rendered once (off the event loop), kept within a budget of characters, least
 * recently used out first, and shared by the views that render at once.
 */
export class RenderedDocuments {
  readonly #done: Lru<readonly string[]>;
  readonly #rendering = new Map<string, Promise<readonly string[]>>();
  #preparing = 0;

  constructor(budgetChars = 64 * 1024 * 1024) {
    this.#done = new Lru(budgetChars, (parts) => parts.reduce((sum, part) => sum + part.length, 0));
  }

  /**
   * The document's rendering in parts, each laid out by the browser only as it nears the screen,
   * and where it came from (a page says so in its Server-Timing header).
   */
  async html(key: DocumentKey, markdown: string): Promise<{ markup: SafeHtml; from: RenderSource }> {
    const id = keyOf(key);
    const from = this.#done.has(id) ? 'cached' : this.#rendering.has(id) ? 'waited' : 'rendered';
    return { markup: partsMarkup(await this.parts(key, markdown)), from };
  }

  /**
   * Starts rendering a version likely to be read soon (one just committed), without waiting for
   * it; not while MAX_PREPARING are under way: an import of hundreds of long pages would queue a
   * rendering, and its text, per page ahead of the pages people ask for.
   */
  prepare(key: DocumentKey, markdown: string): void {
    if (this.#preparing >= MAX_PREPARING) return;
    this.#preparing++;
    this.parts(key, markdown)
      .catch(() => undefined)
      .finally(() => this.#preparing--);
  }

  parts(key: DocumentKey, markdown: string): Promise<readonly string[]> {
    const id = keyOf(key);
    const done = this.#done.get(id);
    if (done) return Promise.resolve(done);
    const under = this.#rendering.get(id);
    if (under) return under;
    const rendering = renderMarkdownOffLoop(markdown).finally(() => this.#rendering.delete(id));
    this.#rendering.set(id, rendering);
    return rendering.then((parts) => {
      this.#done.set(id, parts);
      return parts;
    });
  }
}

const keyOf = (key: DocumentKey): string => `${key.orgId}/${key.artifactId}@${key.version}/${key.variant ?? ''}`;

/** Parts of a rendering as the page holds them: a document of one part is not wrapped. */
export function partsMarkup(parts: readonly string[]): SafeHtml {
  if (parts.length === 1) return trusted(parts[0]!);
  return html`${parts.map((part) => html`<div class="doc-part">${trusted(part)}</div>`)}`;
}

/** The key of an artifact page's document: its body without the title heading, at a version. */
export const pageKey = (orgId: string, artifactId: string, version: string): DocumentKey => ({
  orgId,
  artifactId,
  version,
  variant: 'page',
});

/** A version of an artifact just committed, by any client, as the store tells it. */
export interface WrittenDocument {
  readonly orgId: string;
  readonly artifactId: string;
  readonly version: string;
  readonly title: string;
  readonly body: string;
}

/**
 * Starts rendering each long version as it is committed (a web save, an assistant's edit, an
 * import), so that its first reader finds it rendered or under way instead of starting a
 * rendering that held a 1 MiB document's first view for a second. A short document renders in
 * a few milliseconds when read: nothing is done for it here.
 */
export function renderOnCommit(
  rendered: RenderedDocuments,
  commits: (listener: (written: WrittenDocument) => void) => () => void,
): () => void {
  return commits((written) => {
    const body = withoutTitleHeading(written.body, written.title);
    if (!rendersOffLoop(body)) return;
    rendered.prepare(pageKey(written.orgId, written.artifactId, written.version), body);
  });
}

/**
 * Where a page's document came from: rendered before, rendering already under way (started when
 * the version was committed, or by another reader), or rendered for this request.
 */
export type RenderSource = 'cached' | 'waited' | 'rendered';

/** The Server-Timing entry naming where a page's document came from. */
export const renderTiming = (from: RenderSource): string => `render;desc=${from}`;

/** One version of one artifact's document; `variant` tells apart renderings of different text of it (without its title heading). */
export interface DocumentKey {
  readonly orgId: string;
  readonly artifactId: string;
  readonly version: string;
  readonly variant?: string;
}
