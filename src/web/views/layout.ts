import type { WebUser } from '../../auth/types.js';
import { html, type SafeHtml } from '../html.js';

export interface PageChrome {
  readonly title: string;
  readonly user?: WebUser;
  /** Organization navigation, when the page belongs to one. */
  readonly org?: {
    readonly id: string;
    readonly name: string;
    readonly section?: 'home' | 'activity' | 'deleted' | 'connect' | 'search' | 'audit' | 'webhooks';
    readonly query?: string;
    /** An organization admin: the navigation links the audit log and webhooks. */
    readonly admin?: boolean;
  };
}

/** The one page shell: header with organization navigation and search, main content, footer. */
export function layout(chrome: PageChrome, content: SafeHtml): SafeHtml {
  const { org, user } = chrome;
  const current = (section: string) => (org?.section === section ? html` aria-current="page"` : '');
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
      org
        ? html`<nav aria-label="Organization">
      <a href="/o/${org.id}"${current('home')}>Product</a>
      <a href="/o/${org.id}/activity"${current('activity')}>Activity</a>
      <a href="/o/${org.id}/deleted"${current('deleted')}>Deleted</a>
      <a href="/o/${org.id}/connect"${current('connect')}>Connect</a>
      ${org.admin ? html`<a href="/o/${org.id}/audit"${current('audit')}>Audit</a><a href="/o/${org.id}/webhooks"${current('webhooks')}>Webhooks</a>` : ''}
    </nav>
    <form class="search" role="search" action="/o/${org.id}/search" method="get">
      <label class="visually-hidden" for="site-search">Search this organization</label>
      <input id="site-search" type="search" name="q" placeholder="Search specs…" value="${org.query ?? ''}">
    </form>`
        : ''
    }
    ${
      user
        ? html`<form class="signout" action="/signout" method="post">
      <input type="hidden" name="csrf" value="${user.csrf}">
      <span class="who" title="${user.email}">${user.name}</span>
      <button type="submit" class="link">Sign out</button>
    </form>`
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
