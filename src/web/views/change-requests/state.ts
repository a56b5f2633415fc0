import type { ChangeRequestView } from '../../../domain/index.js';
import { html, type SafeHtml } from '../../html.js';

/** Its state, and while it is open and its author has not submitted it, that it is still a draft. */
export const stateBadge = (cr: Pick<ChangeRequestView, 'state' | 'submittedAt'>): SafeHtml =>
  html`<span class="badge state-${cr.state}">${cr.state}</span>${
    cr.state === 'open' && !cr.submittedAt
      ? html` <span class="badge" title="Its author has not submitted it for review yet">draft</span>`
      : ''
  }`;
