import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ARTIFACT_TYPE_TABLE } from '../../artifacts/index.js';
import { APP_CSS } from './app-css.js';
import { APP_SCRIPT } from './app-script.js';
import { APP_NAMES, type AppName } from './uris.js';

/**
 * The ext-apps runtime bundle (`app-with-deps`) ends in its one export clause; the apps run it
 * inline (nothing is loaded from elsewhere), so the clause becomes the `McpApps` object the app
 * script reads in the same module.
 */
function inlineRuntime(): string {
  const bundle = readFileSync(
    fileURLToPath(import.meta.resolve('@modelcontextprotocol/ext-apps/app-with-deps')),
    'utf8',
  );
  const clause = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(bundle);
  if (!clause || bundle.indexOf('export{') !== clause.index)
    throw new Error('the ext-apps runtime bundle no longer ends in its only export clause');
  const members = clause[1]!.split(',').map((pair) => {
    const [local, exported] = pair.trim().split(/\s+as\s+/);
    return `${JSON.stringify(exported ?? local)}: ${local}`;
  });
  return `${bundle.slice(0, clause.index)}\nconst McpApps = { ${members.join(', ')} };\n`;
}

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const TYPE_NAMES = JSON.stringify(Object.fromEntries(ARTIFACT_TYPE_TABLE.map((def) => [def.type, def.name])));

const TITLES: Record<AppName, string> = {
  artifact: 'Specbase artifact',
  change: 'Specbase change',
  search: 'Specbase search results',
  review: 'Specbase change request',
};

const escapeAttribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * One app's HTML document. Its own policy allows exactly its one script and one stylesheet (by
 * hash) and images from data: only, whatever the host's policy: markup from an artifact body
 * could not run a script even if the sanitizer let one through.
 */
function buildPage(name: AppName, runtime: string): string {
  const script = `${runtime}\n${APP_SCRIPT}`;
  if (/<\/script/i.test(script)) throw new Error('an app script may not contain a closing script tag');
  const policy = [
    "default-src 'none'",
    `script-src ${hash(script)}`,
    `style-src ${hash(APP_CSS)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLES[name]}</title>
<style>${APP_CSS}</style>
</head><body data-view="${name}" data-types="${escapeAttribute(TYPE_NAMES)}"><main id="main" aria-live="polite"></main>
<script type="module">${script}</script>
</body></html>`;
}

let pages: ReadonlyMap<AppName, string> | undefined;

/** The HTML of an app, built once per process (the runtime bundle is half a megabyte). */
export function appPage(name: AppName): string {
  if (!pages) {
    const runtime = inlineRuntime();
    pages = new Map(APP_NAMES.map((app) => [app, buildPage(app, runtime)]));
  }
  return pages.get(name)!;
}
