import type { ChangeRequestState } from '../../../control/types.js';
import type { ChangeRequestView } from '../../../domain/index.js';
import { html, type SafeHtml } from '../../html.js';
import { clientLabel, when } from '../format.js';
import { stateBadge } from './state.js';

export interface ChangeRequestFilters {
  readonly state: ChangeRequestState | 'all';
  /** Part of the author's name, any case. */
  readonly author: string;
}

const STATES = [
  ['open', 'Open'],
  ['merged', 'Merged'],
  ['closed', 'Closed'],
  ['all', 'All'],
] as const;

/** State and author; a GET form, so a filtered list is a link that can be shared. */
function filterForm(orgId: string, filters: ChangeRequestFilters): SafeHtml {
  const action = `/o/${orgId}/cr`;
  return html`<form class="filters" method="get" action="${action}" aria-label="Filter change requests">
  <p><label for="cr-state">State</label><select id="cr-state" name="state">${STATES.map(
    ([value, label]) =>
      html`<option value="${value}"${value === filters.state ? html` selected` : ''}>${label}</option>`,
  )}</select></p>
  <p><label for="cr-author">Author</label><input id="cr-author" name="author" value="${filters.author}" placeholder="Name"></p>
  <p class="filter-actions"><button type="submit" class="secondary">Filter</button>${
    filters.state !== 'open' || filters.author ? html` <a href="${action}">Clear</a>` : ''
  }</p>
</form>`;
}

function entry(orgId: string, cr: ChangeRequestView): SafeHtml {
  return html`<li class="change-request">
  <div class="change-main">
    <p><a class="subject" href="/o/${orgId}/cr/${cr.number}">${cr.title}</a> <span class="muted">#${cr.number}</span> ${stateBadge(cr)}</p>
    <p class="meta">${cr.author ? html`<strong class="author">${cr.author.name}</strong>` : 'A former member'}${
      cr.client ? html` through ${clientLabel(cr.client)}` : ''
    } · updated ${when(cr.updatedAt)} · <code>${cr.branch}</code></p>
  </div>
</li>`;
}

/** The organization's change requests the reader may see, most recently updated first. */
export function changeRequestListPage(
  orgId: string,
  list: readonly ChangeRequestView[],
  filters: ChangeRequestFilters,
): SafeHtml {
  const filtered = filters.state !== 'open' || filters.author !== '';
  return html`<div class="page-head"><h1>Change requests</h1>
<p class="lede">Changes proposed on a branch of their own, read as one diff and merged onto the product by a person. Assistants propose them over MCP; in a clone each is the branch <code>cr/{number}</code>.</p></div>
${filterForm(orgId, filters)}
${
  list.length === 0
    ? html`<p class="empty">${filtered ? 'No change requests match these filters.' : 'No open change requests.'}</p>`
    : html`<ol class="timeline change-requests">${list.map((cr) => entry(orgId, cr))}</ol>`
}`;
}
