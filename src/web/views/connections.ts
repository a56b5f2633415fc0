import type { ConnectedClient } from '../../auth/types.js';
import type { PersonalAccessToken, User } from '../../control/types.js';
import { html, type SafeHtml } from '../html.js';
import { when } from './format.js';

/** A member's connections, as an organization admin sees them. */
export interface MemberConnections {
  readonly user: User;
  readonly grants: readonly ConnectedClient[];
  readonly tokens: readonly PersonalAccessToken[];
}

export interface ConnectionsModel {
  readonly orgId: string;
  readonly csrf: string;
  readonly grants: readonly ConnectedClient[];
  /** Set for an organization admin: every other member with at least one connection. */
  readonly members?: readonly MemberConnections[];
}

const lastUsed = (at: string | null) => (at ? when(at) : html`never`);

function revokeButton(action: string, csrf: string, confirm: string): SafeHtml {
  return html`<form method="post" action="${action}" data-confirm="${confirm}">
<input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="danger small">Revoke</button></form>`;
}

function grantRow(model: ConnectionsModel, grant: ConnectedClient): SafeHtml {
  return html`<tr data-grant="${grant.id}"><td>${grant.clientName}</td><td>${grant.redirectHost ?? '—'}</td><td>${when(grant.createdAt)}</td><td>${lastUsed(grant.lastUsedAt)}</td>
<td>${revokeButton(`/o/${model.orgId}/grants/${grant.id}/revoke`, model.csrf, `Disconnect “${grant.clientName}”? Its next call is refused.`)}</td></tr>`;
}

function grantTable(model: ConnectionsModel, grants: readonly ConnectedClient[], empty: string): SafeHtml {
  if (grants.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<table class="tokens grants"><thead><tr><th scope="col">Assistant</th><th scope="col">Redirect host</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${grants.map((grant) => grantRow(model, grant))}</tbody></table>`;
}

function memberSection(model: ConnectionsModel, member: MemberConnections): SafeHtml {
  const tokens = member.tokens.filter((t) => !t.revokedAt);
  return html`<div class="member-connections" data-member="${member.user.email}">
<h3>${member.user.name} <span class="summary">${member.user.email}</span></h3>
${grantTable(model, member.grants, 'No connected assistants.')}
${tokens.length === 0
    ? html`<p class="empty">No active personal access tokens.</p>`
    : html`<table class="tokens member-tokens"><thead><tr><th scope="col">Token</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${tokens.map(
        (t) => html`<tr data-token="${t.id}"><td>${t.name}</td><td>${when(t.createdAt)}</td><td>${lastUsed(t.lastUsedAt)}</td>
<td>${revokeButton(`/o/${model.orgId}/tokens/${t.id}/revoke`, model.csrf, `Revoke ${member.user.name}’s token “${t.name}”?`)}</td></tr>`,
      )}</tbody></table>`}
</div>`;
}

/** Connected assistants (OAuth grants), and for admins every member's connections. */
export function connectionsSections(model: ConnectionsModel): SafeHtml {
  return html`<section class="panel" aria-labelledby="h-grants">
  <h2 id="h-grants">Connected assistants</h2>
  <p>Assistants you signed in through OAuth. Revoking one refuses its next call; it would have to ask you again.</p>
  ${grantTable(model, model.grants, 'You have not connected an assistant through OAuth.')}
</section>
${model.members
    ? html`<section class="panel" aria-labelledby="h-member-connections">
  <h2 id="h-member-connections">Members’ connections</h2>
  <p>As an organization admin you can cut a member’s assistant or token. A token and an OAuth grant belong to the person, so revoking one stops it for every organization it reaches.</p>
  ${model.members.length === 0 ? html`<p class="empty">No other member has a connection.</p>` : model.members.map((m) => memberSection(model, m))}
</section>`
    : ''}`;
}
