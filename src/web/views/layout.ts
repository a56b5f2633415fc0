import type { WebUser } from '../../auth/types.js';
import type { MemberOrganization } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import { menuFor, type Section } from './menu.js';

export interface PageChrome {
  readonly title: string;
  readonly user?: WebUser;
  /** Organization navigation, when the page belongs to one: the menu its member's standing allows. */
  readonly org?: MemberOrganization & {
    readonly section?: Section;
    readonly query?: string;
  };
}

function orgMenu(org: NonNullable<PageChrome['org']>): SafeHtml {
  return html`<nav aria-label="Organization"><ul class="menu-links">${menuFor(org.standing).map(
    (entry) =>
      html`<li><a href="/o/${org.id}${entry.path}"${org.section === entry.section ? html` aria-current="page"` : ''}>${entry.label}</a></li>`,
  )}</ul></nav>
${
  // The search page has its own, larger search form: one search landmark per page.
  org.section === 'search'
    ? ''
    : html`<form class="search" role="search" aria-label="Search" action="/o/${org.id}/search" method="get">
      <label class="visually-hidden" for="site-search">Search this organization</label>
      <input id="site-search" type="search" name="q" placeholder="Search specs…" value="${org.query ?? ''}">
    </form>`
}`;
}

function signOut(user: WebUser): SafeHtml {
  return html`<form class="signout" action="/signout" method="post">
      <input type="hidden" name="csrf" value="${user.csrf}">
      <span class="who" title="${user.email}">${user.name}</span>
      <button type="submit" class="link">Sign out</button>
    </form>`;
}

/**
 * The one page shell: header, main content, footer. The header's menu, search and sign-out sit
 * in one disclosure: open in a row on wide screens (the stylesheet shows a closed one's content
 * there), folded behind "Menu" on narrow ones, with no script either way.
 */
export function layout(chrome: PageChrome, content: SafeHtml): SafeHtml {
  const { org, user } = chrome;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${chrome.title} · Specbase</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
  <div class="bar">
    <a class="brand" href="${org ? `/o/${org.id}` : '/'}"><span class="logo" aria-hidden="true">◆</span> Specbase${org ? html`<span class="org-name">${org.name}</span>` : ''}</a>
    ${
      org || user
        ? html`<details class="site-menu">
    <summary><span class="menu-icon" aria-hidden="true"></span>Menu</summary>
    <div class="menu-panel">
    ${org ? orgMenu(org) : ''}
    ${user ? signOut(user) : ''}
    </div>
  </details>`
        : ''
    }
  </div>
</header>
<main id="main" tabindex="-1">
${content}
</main>
<footer class="site"><p>Specbase keeps every change in Git: review it, roll it back, clone it.</p></footer>
</body>
</html>`;
}
