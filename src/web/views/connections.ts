import type { ConnectedClient } from '../../auth/types.js';
import type { User } from '../../control/types.js';
import { html, type SafeHtml } from '../html.js';
import { scrollBox, when } from './format.js';

/** A member's token or assistant as this organization knows it: its name, and its use and block here. */
export interface MemberConnection {
  readonly kind: 'token' | 'grant';
  readonly id: string;
  readonly name: string;
  /** An assistant's redirect host. */
  readonly host: string | null;
  readonly lastUsedAt: string | null;
  readonly blockedAt: string | null;
}

/** A member's connections used or blocked in this organization, as an organization admin sees them. */
export interface MemberConnections {
  readonly user: User;
  readonly connections: readonly MemberConnection[];
}

export interface ConnectionsModel {
  readonly orgId: string;
  readonly csrf: string;
  readonly grants: readonly ConnectedClient[];
  /** `token:<id>` and `grant:<id>` of credentials blocked in this organization. */
  readonly blockedHere: ReadonlySet<string>;
  /** Set for an organization admin: every other member with a connection used or blocked here. */
  readonly members?: readonly MemberConnections[];
}

const lastUsed = (at: string | null) => (at ? when(at) : html`never`);

export const blockedNote = (blocked: boolean): SafeHtml =>
  blocked
    ? html` <span class="badge blocked" title="An admin of this organization blocked it here">blocked here</span>`
    : html``;

function postButton(action: string, csrf: string, label: string, confirm: string, style = 'danger small'): SafeHtml {
  return html`<form method="post" action="${action}" data-confirm="${confirm}">
<input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="${style}">${label}</button></form>`;
}

function grantRow(model: ConnectionsModel, grant: ConnectedClient): SafeHtml {
  return html`<tr data-grant="${grant.id}"><td>${grant.clientName}${grant.readOnly ? html` <span class="badge">read-only</span>` : ''}${blockedNote(model.blockedHere.has(`grant:${grant.id}`))}</td><td>${grant.redirectHost ?? '—'}</td><td>${when(grant.createdAt)}</td><td>${lastUsed(grant.lastUsedAt)}</td>
<td>${postButton(`/o/${model.orgId}/grants/${grant.id}/revoke`, model.csrf, 'Revoke', `Disconnect “${grant.clientName}”? Its next call is refused.`)}</td></tr>`;
}

function grantTable(model: ConnectionsModel): SafeHtml {
  if (model.grants.length === 0) return html`<p class="empty">You have not connected an assistant through OAuth.</p>`;
  return html`${scrollBox(
    'Connected assistants',
    html`<table class="tokens grants"><thead><tr><th scope="col">Assistant</th><th scope="col">Redirect host</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${model.grants.map((grant) => grantRow(model, grant))}</tbody></table>`,
  )}`;
}

function memberRow(model: ConnectionsModel, member: MemberConnections, c: MemberConnection): SafeHtml {
  const action = `/o/${model.orgId}/members/${c.kind === 'token' ? 'tokens' : 'grants'}/${c.id}/${c.blockedAt ? 'unblock' : 'block'}`;
  const what = c.kind === 'token' ? html`Personal access token` : html`Assistant${c.host ? html` (${c.host})` : ''}`;
  return html`<tr data-${c.kind}="${c.id}"><td>${c.name}</td><td>${what}</td><td>${lastUsed(c.lastUsedAt)}</td><td>${c.blockedAt ? html`Blocked here since ${when(c.blockedAt)}` : 'Allowed'}</td>
<td>${
    c.blockedAt
      ? postButton(
          action,
          model.csrf,
          'Unblock here',
          `Allow ${member.user.name}’s “${c.name}” in this organization again?`,
          'small',
        )
      : postButton(
          action,
          model.csrf,
          'Block here',
          `Block ${member.user.name}’s “${c.name}” in this organization? It keeps working in their other organizations.`,
        )
  }</td></tr>`;
}

function memberSection(model: ConnectionsModel, member: MemberConnections): SafeHtml {
  return html`<div class="member-connections" data-member="${member.user.email}">
<h3>${member.user.name} <span class="summary">${member.user.email}</span></h3>
${scrollBox(
  `Connections of ${member.user.name}`,
  html`<table class="tokens member-credentials"><thead><tr><th scope="col">Connection</th><th scope="col">Kind</th><th scope="col">Last used here</th><th scope="col">In this organization</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${member.connections.map((c) => memberRow(model, member, c))}</tbody></table>`,
)}
</div>`;
}

/** Connected assistants (OAuth grants), and for admins the members' connections used in this organization. */
export function connectionsSections(model: ConnectionsModel): SafeHtml {
  return html`<section class="panel" aria-labelledby="h-grants">
  <h2 id="h-grants">Connected assistants</h2>
  <p>Assistants you signed in through OAuth. Revoking one refuses its next call in every organization; it would have to ask you again.</p>
  ${grantTable(model)}
</section>
${
  model.members
    ? html`<section class="panel" aria-labelledby="h-member-connections">
  <h2 id="h-member-connections">Members’ connections</h2>
  <p>Tokens and assistants members have used in this organization, with their last use here. A token or an assistant belongs to its person: as an organization admin you can block it in this organization only. It keeps working in their other organizations, and only they can revoke it.</p>
  ${model.members.length === 0 ? html`<p class="empty">No other member has used a connection here.</p>` : model.members.map((m) => memberSection(model, m))}
</section>`
    : ''
}`;
}
