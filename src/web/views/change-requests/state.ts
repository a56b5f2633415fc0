import type { ChangeRequestState } from '../../../control/types.js';
import { html, type SafeHtml } from '../../html.js';

export const stateBadge = (state: ChangeRequestState): SafeHtml =>
  html`<span class="badge state-${state}">${state}</span>`;
