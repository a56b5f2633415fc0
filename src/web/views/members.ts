import { WORKSPACE_ROLES, type WorkspaceRole } from '../../access/index.js';
import type { MemberSummary, ReviewRules, User, Workspace } from '../../control/types.js';
import { html, type SafeHtml } from '../html.js';
import { scrollBox, when } from './format.js';

export interface MembersModel {
  readonly orgId: string;
  readonly csrf: string;
  readonly baseUrl: string;
  readonly members: readonly MemberSummary[];
  readonly workspaces: readonly Workspace[];
  /** How each workspace's changes are reviewed; a workspace absent has both rules off. */
  readonly reviewRules: ReadonlyMap<string, ReviewRules>;
  /** Sign-in through an external issuer: a person added waits for their first sign-in there. */
  readonly externalIssuer: string | undefined;
  /** What the last change did, or why it was refused. */
  readonly outcome?:
    | {
        readonly kind: 'added';
        readonly user: User;
        readonly invitation?: { secret: string; expiresAt: string };
        readonly awaitingSignIn: boolean;
      }
    | { readonly kind: 'problem'; readonly message: string };
}

const hidden = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

/** A member's role in one workspace; it belongs to the row's form, which sits in the last cell. */
function roleSelect(formId: string, workspace: Workspace, who: string, current: WorkspaceRole | undefined) {
  const id = `${formId}-${workspace.id}`;
  return html`<label class="visually-hidden" for="${id}">${who} in ${workspace.name}</label><select id="${id}" name="role-${workspace.id}" form="${formId}"><option value=""${current ? '' : html` selected`}>No access</option>${WORKSPACE_ROLES.map((role) => html`<option value="${role}"${role === current ? html` selected` : ''}>${role}</option>`)}</select>`;
}

function memberRow(model: MembersModel, member: MemberSummary, index: number): SafeHtml {
  const base = `/o/${model.orgId}/members/${member.user.id}`;
  const form = `roles-${index}`;
  return html`<tr data-member="${member.user.email}">
<th scope="row"><span class="member-name">${member.user.name}</span><br><span class="summary">${member.user.email}</span>${
    member.isOwner ? html` <span class="badge">owner</span>` : ''
  }</th>
${model.workspaces.map((w) => {
  const role = member.roles.find((r) => r.workspaceId === w.id)?.role;
  return html`<td>${
    member.isOwner ? html`<span class="muted">admin (owner)</span>` : roleSelect(form, w, member.user.name, role)
  }</td>`;
})}
<td class="member-actions">${
    member.isOwner
      ? ''
      : html`<form id="${form}" method="post" action="${base}/roles">${hidden(model.csrf)}</form><button type="submit" form="${form}" class="small secondary">Save roles</button>`
  }
<form method="post" action="${base}/remove" data-confirm="Remove ${member.user.name} from this organization? They lose every role here.">${hidden(model.csrf)}<button type="submit" class="small danger" aria-label="Remove ${member.user.name}">Remove</button></form></td>
</tr>`;
}

function outcomeNotice(model: MembersModel): SafeHtml {
  const outcome = model.outcome;
  if (!outcome) return html``;
  if (outcome.kind === 'problem') return html`<p class="notice error" role="alert">${outcome.message}</p>`;
  const { user, invitation } = outcome;
  if (invitation) {
    const link = `${model.baseUrl}/invite/${invitation.secret}`;
    return html`<div class="notice success" role="status"><p><strong>${user.email} was added.</strong> Send them this link: it lets them set their password once, until ${when(invitation.expiresAt)}. It is shown this once.</p>
<div class="org-id-row"><code id="invite-link" class="mono">${link}</code> <button type="button" class="copy" data-copy-target="invite-link">Copy link</button></div></div>`;
  }
  return html`<p class="notice success" role="status"><strong>${user.email} was added.</strong> ${
    outcome.awaitingSignIn
      ? `Their membership waits for their first sign-in through ${model.externalIssuer ?? 'the identity provider'}.`
      : 'They can sign in with their account now.'
  }</p>`;
}

function addForm(model: MembersModel): SafeHtml {
  return html`<section class="panel" aria-labelledby="h-add-member"><h2 id="h-add-member">Add a person</h2>
<p class="small muted">${
    model.externalIssuer
      ? `People sign in through ${model.externalIssuer}: someone new gets their role at their first sign-in with this address.`
      : 'Someone new gets a link to set their password; someone with an account here gets the role at once.'
  }</p>
<form class="stacked" method="post" action="/o/${model.orgId}/members">${hidden(model.csrf)}
<p><label for="m-email">Email</label><input id="m-email" name="email" type="email" required autocomplete="off"></p>
<p><label for="m-name">Name <span class="optional">(optional)</span></label><input id="m-name" name="name" maxlength="200" autocomplete="off"></p>
<p><label for="m-workspace">Workspace</label><select id="m-workspace" name="workspace">${model.workspaces.map(
    (w) => html`<option value="${w.id}">${w.name}</option>`,
  )}</select></p>
<p><label for="m-role">Role</label><select id="m-role" name="role">${WORKSPACE_ROLES.map(
    (role) => html`<option value="${role}">${role}</option>`,
  )}</select></p>
<p class="form-actions"><button type="submit">Add person</button></p>
</form></section>`;
}

const checked = (on: boolean | undefined) => (on ? html` checked` : '');

/** A workspace's review rules: whether assistants' changes wait for review, and four eyes on merging. */
function reviewForm(model: MembersModel, workspace: Workspace, index: number): SafeHtml {
  const rules = model.reviewRules.get(workspace.id);
  return html`<form class="review-rules" method="post" action="/o/${model.orgId}/workspaces/${workspace.id}/review">${hidden(model.csrf)}
<fieldset><legend>Review in ${workspace.name}</legend>
<label class="check"><input type="checkbox" id="review-assistants-${index}" name="assistantChangesNeedReview"${checked(rules?.assistantChangesNeedReview)}> Changes from assistants need review</label>
<label class="check"><input type="checkbox" id="review-four-eyes-${index}" name="authorCannotMerge"${checked(rules?.authorCannotMerge)}> The author cannot merge their own change (four eyes)</label>
<button type="submit" class="small secondary">Save review rules</button></fieldset></form>`;
}

function workspacesSection(model: MembersModel): SafeHtml {
  return html`<section class="panel" aria-labelledby="h-workspaces"><h2 id="h-workspaces">Workspaces</h2>
<ul class="workspace-list">${model.workspaces.map(
    (
      w,
      i,
    ) => html`<li><form class="inline-form" method="post" action="/o/${model.orgId}/workspaces/${w.id}/rename">${hidden(model.csrf)}
<label class="visually-hidden" for="ws-${i}">Name of ${w.name}</label><input id="ws-${i}" name="name" value="${w.name}" required maxlength="200">
<button type="submit" class="small secondary">Rename</button>${w.isDefault ? html` <span class="badge">default</span>` : ''}</form>
${reviewForm(model, w, i)}</li>`,
  )}</ul>
<form class="inline-form" method="post" action="/o/${model.orgId}/workspaces">${hidden(model.csrf)}
<label for="ws-new">New workspace</label><input id="ws-new" name="name" required maxlength="200"><button type="submit" class="small">Create workspace</button></form>
</section>`;
}

/** The organization's members with their role in each workspace, adding people, and the workspaces: for its admins. */
export function membersPage(model: MembersModel): SafeHtml {
  const table = html`<table class="tokens members"><thead><tr><th scope="col">Person</th>${model.workspaces.map(
    (w) => html`<th scope="col">${w.name}</th>`,
  )}<th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${model.members.map((m, i) => memberRow(model, m, i))}</tbody></table>`;
  return html`<div class="page-head"><h1>Members</h1><p class="lede">Who may read, edit or manage each workspace. An owner is admin everywhere; an organization always keeps one. Every change here is in the audit log.</p></div>
${outcomeNotice(model)}
<section aria-labelledby="h-members"><h2 id="h-members">People <span class="count">${model.members.length}</span></h2>
${scrollBox('Members and their roles', table)}</section>
${addForm(model)}
${workspacesSection(model)}`;
}
