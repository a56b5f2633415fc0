import type { HistoryPage } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { filterForm, pager, timeline, type TimelineFilters } from './timeline.js';

export function activityPage(
  orgId: string,
  page: HistoryPage,
  filters: TimelineFilters,
  onFirstPage: boolean,
): SafeHtml {
  const action = `/o/${orgId}/activity`;
  const filtered = Object.values(filters).some(Boolean);
  return html`<div class="page-head"><h1>Activity</h1><p class="lede">Changes across the organization, newest first.</p></div>
${filterForm(action, filters)}
${timeline(orgId, page, true, filtered)}
${pager(action, filters, page, onFirstPage)}`;
}
