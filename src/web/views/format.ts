import { artifactType, type ArtifactType, type RequirementType } from '../../artifacts/index.js';
import type { HistoryEntry } from '../../store/types.js';
import { html, type SafeHtml } from '../html.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A time in UTC, machine-readable in `datetime`; app.js shows it in the reader's zone, UTC on hover. */
export function when(iso: string): SafeHtml {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return html`${iso}`;
  const pad = (n: number) => String(n).padStart(2, '0');
  const text = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
  return html`<time datetime="${d.toISOString()}" title="${text}" data-local>${text}</time>`;
}

export const typeName = (type: ArtifactType): string => artifactType(type).name;

export function typeBadge(type: ArtifactType): SafeHtml {
  return html`<span class="badge type-${type}">${typeName(type)}</span>`;
}

const REQUIREMENT_LABEL: Record<RequirementType, string> = {
  FUNCTIONAL: 'Functional',
  NON_FUNCTIONAL: 'Non-functional',
  CONSTRAINT: 'Constraint',
  BUSINESS_RULE: 'Business rule',
};

export const requirementLabel = (type: RequirementType): string => REQUIREMENT_LABEL[type];
export function requirementBadge(type: RequirementType | undefined): SafeHtml {
  return type
    ? html`<span class="badge req req-${type.toLowerCase()}" title="Requirement type">${REQUIREMENT_LABEL[type]}</span>`
    : html``;
}

export function clientLabel(client: string | undefined): SafeHtml {
  return html`<span class="client" title="Client">${client ?? 'unknown client'}</span>`;
}

const VERB: Record<HistoryEntry['verb'], string> = {
  create: 'created',
  edit: 'edited',
  revert: 'reverted a change to',
  restore: 'restored a version of',
  delete: 'deleted',
  move: 'moved',
};
export const verbText = (verb: HistoryEntry['verb']): string => VERB[verb];

export function lineCounts(entry: { added: number; removed: number }): SafeHtml {
  return html`<span class="counts"><span class="added" title="lines added">+${entry.added}</span> <span class="removed" title="lines removed">−${entry.removed}</span></span>`;
}

export const shortCommit = (commit: string): string => commit.slice(0, 7);

/** The commit message without the trailers, which the page shows as fields of their own. */
export function messageSubject(message: string): string {
  return message.split('\n')[0] ?? '';
}

/**
 * A wide table in a box that scrolls sideways on its own, so that the page never does on a
 * phone; focusable and named, so a keyboard can scroll it too.
 */
export function scrollBox(label: string, inner: SafeHtml): SafeHtml {
  return html`<div class="scroll-box" role="region" aria-label="${label}" tabindex="0">${inner}</div>`;
}
