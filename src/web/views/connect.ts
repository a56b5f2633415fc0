import { PERSONAL_ACCESS_TOKEN_DAYS } from '../../control/index.js';
import type { Organization, PersonalAccessToken } from '../../control/types.js';
import { html, type SafeHtml } from '../html.js';
import { blockedNote, connectionsSections, type ConnectionsModel } from './connections.js';
import { scrollBox, when } from './format.js';

export interface ConnectModel {
  readonly org: Organization;
  readonly baseUrl: string;
  readonly tokens: readonly PersonalAccessToken[];
  readonly csrf: string;
  readonly connections: ConnectionsModel;
  /** A token just created: its secret is shown this once. */
  readonly created?: { readonly name: string; readonly secret: string };
  /** The configurations give the assistant the manage tools (delete, move, restore, revert). */
  readonly manage?: boolean;
}

/** Lifetimes (days) the form offers; the default is the control plane's, and "never" must be chosen. */
export const TOKEN_LIFETIMES: readonly number[] = [7, 30, PERSONAL_ACCESS_TOKEN_DAYS, 365];

/** `name` tells the block's region from the others when its label (Terminal) does not. */
function snippet(id: string, label: string, text: string, name = label): SafeHtml {
  return html`<div class="snippet">
  <div class="snippet-head"><span>${label}</span><button type="button" class="copy" data-copy-target="${id}">Copy</button></div>
  <pre id="${id}" role="region" aria-label="${name}" tabindex="0"><code>${text}</code></pre>
</div>`;
}

/** The header that adds the manage tools to a connection, and the URL form for clients without headers. */
const MANAGE_HEADER = { name: 'X-Specbase-Tools', value: '+manage' } as const;

/** Every client's configuration; with `manage`, each asks for the manage tools its own way. */
export function clientConfigs(baseUrl: string, orgId: string, manage = false) {
  const http = `${baseUrl}/api/mcp/mcp`;
  const sse = `${baseUrl}/api/mcp/sse`;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const headers = { 'X-Organization-Id': orgId, ...(manage ? { [MANAGE_HEADER.name]: MANAGE_HEADER.value } : {}) };
  const remoteHeaders = Object.entries(headers).flatMap(([name, value]) => ['--header', `${name}:${value}`]);
  const cliHeaders = Object.entries(headers)
    .map(([name, value]) => ` --header "${name}: ${value}"`)
    .join('');
  const headerLines = Object.entries(headers)
    .map(([name, value]) => `Header:  ${name}: ${value}\n`)
    .join('');
  const orgPathManage = `${baseUrl}/api/mcp/o/${orgId}/manage/mcp`;
  return {
    http,
    sse,
    readOnly: `${baseUrl}/api/mcp/readonly/mcp`,
    orgPath: `${baseUrl}/api/mcp/o/${orgId}/mcp`,
    orgPathReadOnly: `${baseUrl}/api/mcp/o/${orgId}/readonly/mcp`,
    orgPathManage,
    claudeDesktop: json({ mcpServers: { specbase: { command: 'npx', args: ['mcp-remote', http, ...remoteHeaders] } } }),
    claudeCode: `claude mcp add --transport http specbase ${http}${cliHeaders}`,
    cursor: json({ mcpServers: { specbase: { url: http, headers } } }),
    vscode: json({ servers: { specbase: { type: 'http', url: http, headers } } }),
    generic:
      `URL:     ${http}\n${headerLines}Auth:    OAuth 2.1 (discovered automatically), or\n         Authorization: Bearer <personal access token>\nSSE:     ${sse}` +
      (manage ? `\nNo headers: ${orgPathManage}` : ''),
    gitClone: `git clone ${baseUrl}/git/${orgId}.git`,
  };
}

function tokenRows(model: ConnectModel): SafeHtml {
  const active = model.tokens.filter((t) => !t.revokedAt);
  if (active.length === 0) return html`<p class="empty">You have no active personal access tokens.</p>`;
  return html`${scrollBox(
    'Your personal access tokens',
    html`<table class="tokens"><thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${active.map(
      (
        t,
      ) => html`<tr><td>${t.name}${t.readOnly ? html` <span class="badge">read-only</span>` : ''}${blockedNote(model.connections.blockedHere.has(`token:${t.id}`))}</td><td>${when(t.createdAt)}</td><td>${t.expiresAt ? when(t.expiresAt) : 'never'}</td><td>${t.lastUsedAt ? when(t.lastUsedAt) : 'never'}</td>
<td><form method="post" action="/o/${model.org.id}/tokens/${t.id}/revoke" data-confirm="Revoke the token “${t.name}”? Clients using it stop working in every organization.">
<input type="hidden" name="csrf" value="${model.csrf}"><button type="submit" class="danger small">Revoke</button></form></td></tr>`,
    )}</tbody></table>`,
  )}`;
}

export function connectPage(model: ConnectModel): SafeHtml {
  const { org } = model;
  const c = clientConfigs(model.baseUrl, org.id, model.manage === true);
  return html`<div class="page-head"><h1>Connect an assistant</h1>
<p class="lede">Point any MCP client at Specbase. Every request names the organization with the <code>X-Organization-Id</code> header; sign-in happens through OAuth, or with a personal access token.</p></div>

<section class="panel" aria-labelledby="h-org">
  <h2 id="h-org">Organization ID</h2>
  <div class="org-id-row"><code id="org-id" class="big mono">${org.id}</code>
  <button type="button" class="copy" data-copy-target="org-id">Copy organization ID</button></div>
</section>

<section class="panel" aria-labelledby="h-urls">
  <h2 id="h-urls">MCP endpoints</h2>
  <dl class="urls">
    <dt>Streamable HTTP</dt><dd><code id="mcp-url">${c.http}</code> <button type="button" class="copy small" data-copy-target="mcp-url">Copy</button></dd>
    <dt>Server-Sent Events (legacy)</dt><dd><code id="sse-url">${c.sse}</code> <button type="button" class="copy small" data-copy-target="sse-url">Copy</button></dd>
    <dt>Organization in the path (clients without headers)</dt><dd><code id="org-path-url">${c.orgPath}</code> <button type="button" class="copy small" data-copy-target="org-path-url">Copy</button></dd>
  </dl>
  <h3 id="h-readonly">Read-only and fewer tools</h3>
  <p>An assistant that should only read connects with the header <code>X-Specbase-Readonly: true</code>, or to a <code>/readonly</code> URL. The tools that change the specification are then absent, and refused if called.</p>
  <dl class="urls">
    <dt>Read-only</dt><dd><code id="readonly-url">${c.readOnly}</code> <button type="button" class="copy small" data-copy-target="readonly-url">Copy</button></dd>
    <dt>Read-only, organization in the path</dt><dd><code id="org-path-readonly-url">${c.orgPathReadOnly}</code> <button type="button" class="copy small" data-copy-target="org-path-readonly-url">Copy</button></dd>
  </dl>
  <p>To offer fewer tools, send <code>X-Specbase-Tools</code> with tool kinds (<code>search</code>, <code>read</code>, <code>list</code>, <code>create</code>, <code>edit</code>, <code>manage</code>) or tool names, comma separated, e.g. <code>X-Specbase-Tools: search,read,list</code>. A token created read-only below stays read-only whatever the connection asks.</p>
  <h3 id="h-manage">Delete, move, restore and revert</h3>
  <p>An assistant gets the five <code>manage</code> tools (delete, restore, move, revert a change, read the history) only when it asks: with <code>X-Specbase-Tools: +manage</code>, or at a <code>/manage</code> URL. Read-only connections and tokens never get them.</p>
  <dl class="urls">
    <dt>With the manage tools, organization in the path</dt><dd><code id="org-path-manage-url">${c.orgPathManage}</code> <button type="button" class="copy small" data-copy-target="org-path-manage-url">Copy</button></dd>
  </dl>
</section>

<section class="panel" aria-labelledby="h-clients">
  <h2 id="h-clients">Client configuration</h2>
  <form method="get" action="/o/${org.id}/connect#h-clients" data-autosubmit>
    <label for="allow-manage"><input type="checkbox" id="allow-manage" name="manage" value="1"${model.manage ? html` checked` : ''}> Let the assistant delete, move, restore and revert</label>
    <button type="submit" class="secondary small">Update the configurations</button>
  </form>
  <h3>Claude Desktop</h3>
  <p>Add to <code>claude_desktop_config.json</code> (Settings → Developer → Edit Config). It runs <code>mcp-remote</code>, which opens your browser to sign in.</p>
  ${snippet('cfg-claude-desktop', 'claude_desktop_config.json', c.claudeDesktop)}
  <h3>Claude Code</h3>
  ${snippet('cfg-claude-code', 'Terminal', c.claudeCode, 'Claude Code command')}
  <h3>Cursor</h3>
  <p>Add to <code>~/.cursor/mcp.json</code> or <code>.cursor/mcp.json</code> in a project.</p>
  ${snippet('cfg-cursor', 'mcp.json', c.cursor)}
  <h3>VS Code</h3>
  <p>Add to <code>.vscode/mcp.json</code> in your workspace.</p>
  ${snippet('cfg-vscode', '.vscode/mcp.json', c.vscode)}
  <h3>Any other MCP client</h3>
  ${snippet('cfg-generic', 'Settings', c.generic)}
</section>

<section class="panel" aria-labelledby="h-tokens">
  <h2 id="h-tokens">Personal access tokens</h2>
  <p>For clients without OAuth sign-in (send <code>Authorization: Bearer &lt;token&gt;</code>) and as the password for <code>git clone</code>. A token acts as you, with your roles.</p>
  ${
    model.created
      ? html`<div class="notice success" role="status"><p><strong>Token “${model.created.name}” created.</strong> Copy it now: it will not be shown again.</p>
  <div class="org-id-row"><code id="new-token" class="mono">${model.created.secret}</code> <button type="button" class="copy" data-copy-target="new-token">Copy token</button></div></div>`
      : ''
  }
  ${tokenRows(model)}
  <form class="inline-form" method="post" action="/o/${org.id}/tokens">
    <input type="hidden" name="csrf" value="${model.csrf}">
    <label for="token-name">New token name</label>
    <input id="token-name" name="name" required maxlength="100" placeholder="e.g. Laptop – Cursor">
    <label for="token-expires">Expires</label>
    <select id="token-expires" name="expires">
      ${TOKEN_LIFETIMES.map((days) => html`<option value="${String(days)}"${days === PERSONAL_ACCESS_TOKEN_DAYS ? html` selected` : ''}>in ${String(days)} days</option>`)}
      <option value="never">never</option>
    </select>
    <label for="token-readonly"><input type="checkbox" id="token-readonly" name="readonly"> Read-only</label>
    <button type="submit">Create token</button>
  </form>
</section>

${connectionsSections(model.connections)}

<section class="panel" aria-labelledby="h-git">
  <h2 id="h-git">Clone with Git</h2>
  <p>The whole organization as markdown files with full history. Git asks for a user name (any, for example your email) and a password: use a personal access token. Read-only.</p>
  ${snippet('cfg-git', 'Terminal', c.gitClone, 'Git clone command')}
</section>`;
}
