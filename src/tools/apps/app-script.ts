/**
 * The browser side of the MCP Apps, run after the ext-apps runtime in the same module script
 * (page.ts binds its exports to `McpApps`). Everything it shows is built as DOM nodes from text,
 * except the document and diff markup, which the server rendered and sanitized as the web
 * application does; inserted through a template, no script in it ever runs.
 */
export const APP_SCRIPT = String.raw`
const { App, applyDocumentTheme, applyHostStyleVariables } = McpApps;
const root = document.getElementById('main');
const view = document.body.dataset.view;
const typeNames = JSON.parse(document.body.dataset.types || '{}');
const app = new App({ name: 'Specbase', version: '1.0.0' });

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child);
  return node;
}

function sanitized(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

function show(...nodes) {
  root.replaceChildren(...nodes.filter((node) => node !== null && node !== undefined && node !== false));
}

function short(commit) {
  return String(commit).slice(0, 7);
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function link(url, label) {
  return el('a', { href: url, target: '_blank', rel: 'noopener', onclick: (event) => { event.preventDefault(); app.openLink({ url }).catch(() => undefined); } }, label);
}

function badge(type, name) {
  return el('span', { class: 'badge type-' + type }, name || typeNames[type] || type);
}

function crumbs(list, last) {
  const items = list.map((crumb) => el('li', {}, crumb.label));
  if (last) items.push(el('li', { 'aria-current': 'page' }, last));
  return el('nav', { class: 'crumbs', 'aria-label': 'Place in the tree' }, el('ol', {}, items));
}

function problem(text, heading) {
  return el('div', { class: 'notice error', role: 'alert' }, heading ? el('strong', {}, heading + ' ') : null, text);
}

function loading(what) {
  show(el('p', { class: 'muted', role: 'status' }, 'Loading ' + what + '…'));
}

function textOf(result) {
  return (result.content || []).filter((block) => block.type === 'text').map((block) => block.text).join('\n');
}

async function call(name, args) {
  const result = await app.callServerTool({ name, arguments: args });
  if (result.isError) throw new Error(textOf(result) || name + ' failed');
  return result.structuredContent;
}

async function showArtifact(id, back) {
  loading('the artifact');
  try {
    const a = await call('specbase_app_artifact', { id });
    show(
      back ? el('button', { class: 'secondary back', type: 'button', onclick: back }, '← Results') : null,
      crumbs(a.crumbs),
      el('header', { class: 'head' },
        el('p', { class: 'eyebrow' }, badge(a.type, a.typeName), a.requirementType ? el('span', { class: 'badge' }, a.requirementType) : null),
        el('h1', {}, a.title),
        el('p', { class: 'meta' }, 'Version ', el('code', {}, short(a.version)), ' · last changed by ', el('strong', {}, a.updatedBy), ', ' + when(a.updatedAt), ' · ', link(a.url, 'Open in Specbase'))),
      el('article', { class: 'markdown' }, sanitized(a.html)),
    );
  } catch (error) {
    show(problem(error.message));
  }
}

function revertControls(change) {
  const area = el('div', { class: 'actions' });
  const ask = () => {
    area.replaceChildren(el('section', { class: 'confirm', role: 'dialog', 'aria-labelledby': 'confirm-heading' },
      el('h2', { id: 'confirm-heading' }, 'Revert this change?'),
      el('p', {}, 'Undoes exactly this change in the current document, as a new change in your name. Later changes stay. If a later change touched the same lines, nothing is written and you will be told.'),
      el('div', { class: 'buttons' },
        el('button', { type: 'button', class: 'danger', onclick: (event) => revert(event.currentTarget) }, 'Revert'),
        el('button', { type: 'button', class: 'secondary', onclick: idle }, 'Cancel'))));
  };
  const idle = () => area.replaceChildren(el('button', { type: 'button', class: 'danger', onclick: ask }, 'Revert this change'));
  const revert = async (button) => {
    button.disabled = true;
    try {
      const done = await call('specbase_app_revert', { id: change.id, commit: change.commit });
      area.replaceChildren(el('div', { class: 'notice ok', role: 'status' }, el('strong', {}, 'Reverted. '), 'The document is now at version ', el('code', {}, short(done.version)), ' (+' + done.added + ' −' + done.removed + ' lines). ', link(done.url, 'Open in Specbase')));
    } catch (error) {
      area.replaceChildren(problem(error.message, 'Nothing was written.'), el('button', { type: 'button', class: 'secondary', onclick: idle }, 'Back'));
    }
  };
  idle();
  return area;
}

async function showChange(id, commit) {
  loading('the change');
  try {
    const c = await call('specbase_app_change', { id, commit });
    show(
      crumbs(c.crumbs, c.title),
      el('header', { class: 'head' },
        el('p', { class: 'eyebrow' }, 'Change ', el('code', {}, short(c.commit))),
        el('h1', {}, c.message || c.title),
        el('p', { class: 'meta' }, 'By ', el('strong', {}, c.author), ', ' + when(c.authoredAt), c.client ? ' via ' + c.client : '', ' · ',
          el('span', { class: 'added' }, '+' + c.added), ' ', el('span', { class: 'removed' }, '−' + c.removed), ' lines · ', link(c.url, 'Open in Specbase'))),
      el('section', { class: 'diff-panel' }, sanitized(c.html)),
      revertControls(c),
    );
  } catch (error) {
    show(problem(error.message));
  }
}

function reviewControls(cr) {
  const area = el('div', { class: 'actions' });
  const act = async (button, tool, done) => {
    for (const b of area.querySelectorAll('button')) b.disabled = true;
    try {
      const result = await call(tool, { number: cr.number });
      area.replaceChildren(el('div', { class: 'notice ok', role: 'status' }, el('strong', {}, done + ' '), link(result.url, 'Open in Specbase')));
    } catch (error) {
      area.replaceChildren(problem(error.message, 'Nothing was written.'), link(cr.url, 'Review it in Specbase'));
    }
  };
  if (cr.state !== 'open') {
    area.append(el('p', { class: 'muted' }, 'This change request is ' + cr.state + '.'));
    return area;
  }
  area.append(
    cr.mergeable ? null : el('p', { class: 'notice' }, 'You cannot merge it: ' + cr.notMergeableBecause + '.'),
    el('div', { class: 'buttons' },
      el('button', { type: 'button', disabled: !cr.mergeable, onclick: (event) => act(event.currentTarget, 'specbase_app_merge_change_request', 'Merged onto main.') }, 'Merge'),
      el('button', { type: 'button', class: 'secondary', onclick: (event) => act(event.currentTarget, 'specbase_app_close_change_request', 'Closed without merging.') }, 'Close')));
  return area;
}

async function showChangeRequest(number) {
  loading('the change request');
  try {
    const cr = await call('specbase_app_change_request', { number });
    show(
      el('header', { class: 'head' },
        el('p', { class: 'eyebrow' }, 'Change request #' + cr.number + ' · ', el('code', {}, cr.branch), ' · ' + cr.state),
        el('h1', {}, cr.title),
        el('p', { class: 'meta' }, cr.author ? 'By ' : '', cr.author ? el('strong', {}, cr.author) : null, cr.author ? ' · ' : '', link(cr.url, 'Review in Specbase'))),
      cr.description ? el('p', {}, cr.description) : null,
      cr.files.length === 0 ? el('p', { class: 'muted' }, 'It changes nothing yet.') : null,
      ...cr.files.map((file) => el('section', { class: 'diff-panel' }, el('h2', {}, file.status + ' · ' + file.title), sanitized(file.html))),
      reviewControls(cr),
    );
  } catch (error) {
    show(problem(error.message));
  }
}

/** Places are asked for once per result list; going back to the list shows them again. */
let knownPlaces;

function showResults(answer) {
  const results = answer.results || [];
  const places = new Map();
  const list = el('ul', { class: 'results' }, results.map((r) => {
    const place = el('span', { class: 'place' });
    places.set(r.id, place);
    return el('li', {}, el('button', { type: 'button', class: 'result', 'data-id': r.id, onclick: () => showArtifact(r.id, again) },
      el('span', { class: 'line' }, badge(r.type), el('span', { class: 'title' }, r.title)),
      place,
      el('span', { class: 'preview' }, r.preview)));
  }));
  const again = () => showResults(answer);
  show(
    answer.notice ? el('p', { class: 'notice' }, answer.notice) : null,
    el('h1', { class: 'results-head' }, results.length === 0 ? 'No results' : results.length + (results.length === 1 ? ' result' : ' results')),
    list,
  );
  if (results.length === 0) return;
  knownPlaces ??= call('specbase_app_places', { ids: results.map((r) => r.id) }).then((answer) => answer.places, () => []);
  knownPlaces.then((list) => { for (const p of list) places.get(p.id)?.replaceChildren(p.crumbs.map((c) => c.label).join(' › ')); });
}

function onResult(result) {
  if (result.isError) return show(problem(textOf(result)));
  const data = result.structuredContent || {};
  if (view === 'artifact' && data.id) return showArtifact(data.id);
  if (view === 'change' && data.id && data.version) return showChange(data.id, data.version);
  if (view === 'search' && Array.isArray(data.results)) return showResults(data);
  if (view === 'review' && data.number) return showChangeRequest(data.number);
  show(problem('This result has nothing to show.'));
}

function follow(context) {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles && context.styles.variables) applyHostStyleVariables(context.styles.variables);
}

app.ontoolresult = onResult;
app.onhostcontextchanged = follow;
loading(view === 'search' ? 'the results' : view === 'change' ? 'the change' : view === 'review' ? 'the change request' : 'the artifact');
await app.connect();
follow(app.getHostContext());
`;
