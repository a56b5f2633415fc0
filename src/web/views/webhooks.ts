import {
  WEBHOOK_EVENT_KINDS,
  type DeliveryAttempt,
  type WebhookEndpoint,
  type WebhookMetrics,
  type Workspace,
} from '../../control/types.js';
import { html, type SafeHtml } from '../html.js';
import { scrollBox, when } from './format.js';

export interface WebhooksModel {
  readonly orgId: string;
  readonly csrf: string;
  readonly workspaces: readonly Workspace[];
  readonly endpoints: readonly {
    readonly endpoint: WebhookEndpoint;
    readonly metrics: WebhookMetrics | undefined;
    readonly attempts: readonly DeliveryAttempt[];
  }[];
  /** An endpoint just added: its signing secret is shown this once. */
  readonly created?: { readonly id: string; readonly secret: string };
  readonly problem?: string;
}

function postButton(action: string, csrf: string, label: string, style: string, confirm?: string): SafeHtml {
  return html`<form method="post" action="${action}"${confirm ? html` data-confirm="${confirm}"` : ''}>
<input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="${style}">${label}</button></form>`;
}

function attemptRow(attempt: DeliveryAttempt): SafeHtml {
  const result = attempt.ok ? html`<span class="badge ok">ok</span>` : html`<span class="badge blocked">failed</span>`;
  const state =
    attempt.state === 'delivered'
      ? 'delivered'
      : attempt.state === 'given_up'
        ? 'given up'
        : html`retrying ${attempt.nextAttemptAt ? when(attempt.nextAttemptAt) : ''}`;
  return html`<tr data-attempt="${attempt.id}"><td>${when(attempt.at)}</td><td class="mono">${attempt.kind}</td><td class="attempt-result">${result}</td>
<td class="attempt-code">${attempt.responseCode ?? '—'}</td><td>${attempt.error ?? ''}</td><td class="attempt-state">${state}</td><td class="mono summary">${attempt.messageId}</td></tr>`;
}

const ms = (value: number | null) => (value === null ? '—' : `${value} ms`);

/** The endpoint's figures over the attempts still logged, as `specbase webhook list --json` gives them. */
function figures(metrics: WebhookMetrics): SafeHtml {
  return html`<dl class="urls" data-metrics>
<dt>Delivered</dt><dd data-metric="delivered">${metrics.delivered}</dd>
<dt>Failed attempts</dt><dd data-metric="failed">${metrics.failed}</dd>
<dt>Latency p50 / p95</dt><dd data-metric="latency">${ms(metrics.p50Ms)} / ${ms(metrics.p95Ms)}</dd>
<dt>Queued</dt><dd data-metric="queued">${metrics.queued}${metrics.inFlight ? ` (${metrics.inFlight} being sent)` : ''}</dd>
<dt>Last error</dt><dd data-metric="last-error">${metrics.lastError ? html`${metrics.lastError}, ${when(metrics.lastErrorAt!)}` : 'none'}</dd>
</dl>`;
}

function endpointSection(
  model: WebhooksModel,
  endpoint: WebhookEndpoint,
  metrics: WebhookMetrics | undefined,
  attempts: readonly DeliveryAttempt[],
): SafeHtml {
  const base = `/o/${model.orgId}/webhooks/${endpoint.id}`;
  const names =
    endpoint.workspaceIds === 'all'
      ? ['all, including workspaces made later']
      : endpoint.workspaceIds.map((id) => model.workspaces.find((w) => w.id === id)?.name ?? id);
  return html`<div class="webhook panel" id="webhook-${endpoint.id}" data-webhook="${endpoint.id}">
<h3 class="mono">${endpoint.url}</h3>
${
  endpoint.disabledAt
    ? html`<div class="notice error" role="status"><p><strong>Disabled ${when(endpoint.disabledAt)}:</strong> ${endpoint.disabledReason ?? ''}. No events are sent to it until it is enabled again; events it missed meanwhile are tried again if they are less than a day old.</p>
${postButton(`${base}/enable`, model.csrf, 'Enable again', 'small')}</div>`
    : endpoint.failingSince
      ? html`<p class="notice error">Every delivery has failed since ${when(endpoint.failingSince)}; after a day of failures it is disabled.</p>`
      : ''
}
${
  endpoint.dropped > 0
    ? html`<p class="notice error" role="status" data-dropped="${endpoint.dropped}"><strong>${endpoint.dropped} events dropped</strong>, the last ${when(endpoint.droppedAt!)}: the endpoint fell so far behind that its queue was full, and the oldest events were dropped. Make it answer faster, or remove the events it does not need.</p>`
    : ''
}
<p>Events: <span class="webhook-events">${endpoint.events.join(', ')}</span> · Workspaces: <span class="webhook-workspaces">${names.join(', ')}</span> · Added ${when(endpoint.createdAt)}</p>
<div class="actions">${endpoint.disabledAt ? '' : postButton(`${base}/test`, model.csrf, 'Send test event', 'secondary small')}
${postButton(`${base}/remove`, model.csrf, 'Remove', 'danger small', `Remove the webhook to ${endpoint.url}? Events not yet delivered are dropped.`)}</div>
${metrics ? figures(metrics) : ''}
${
  attempts.length === 0
    ? html`<p class="empty">No delivery attempted yet.</p>`
    : html`${scrollBox(
        'Latest delivery attempts',
        html`<table class="tokens attempts"><caption>Latest delivery attempts</caption><thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Result</th><th scope="col">Response</th><th scope="col">Error</th><th scope="col">Then</th><th scope="col">webhook-id</th></tr></thead>
<tbody>${attempts.map(attemptRow)}</tbody></table>`,
      )}`
}
</div>`;
}

function addForm(model: WebhooksModel): SafeHtml {
  return html`<section class="panel" aria-labelledby="h-add-webhook">
<h2 id="h-add-webhook">Add a webhook</h2>
${model.problem ? html`<p class="notice error" role="alert">${model.problem}</p>` : ''}
<form method="post" action="/o/${model.orgId}/webhooks">
  <input type="hidden" name="csrf" value="${model.csrf}">
  <p><label for="w-url">Endpoint URL</label><input id="w-url" name="url" type="url" required placeholder="https://hooks.example.com/specbase" size="60"></p>
  <fieldset><legend>Events</legend>${WEBHOOK_EVENT_KINDS.map(
    (kind) => html`<label class="check"><input type="checkbox" name="events" value="${kind}" checked> ${kind}</label> `,
  )}</fieldset>
  <fieldset><legend>Workspaces</legend>${model.workspaces.map(
    (w) =>
      html`<label class="check"><input type="checkbox" name="workspaces" value="${w.id}"${w.isDefault ? ' checked' : ''}> ${w.name}</label> `,
  )}</fieldset>
  <p><button type="submit">Add webhook</button></p>
</form></section>`;
}

/** An organization's webhooks for its admins: endpoints, their delivery log, add, test, remove. */
export function webhooksPage(model: WebhooksModel): SafeHtml {
  return html`<div class="page-head"><h1>Webhooks</h1><p class="lede">Each change to an artifact in the chosen workspaces is sent to the endpoint as a signed JSON event (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). A failed delivery is tried again with growing pauses for a day; an endpoint that fails for a day is disabled.</p></div>
${
  model.created
    ? html`<div class="notice success" role="status"><p><strong>Webhook added.</strong> Its signing secret, shown this once: verify every delivery with it.</p>
<div class="org-id-row"><code id="new-secret" class="mono">${model.created.secret}</code> <button type="button" class="copy" data-copy-target="new-secret">Copy secret</button></div></div>`
    : ''
}
${addForm(model)}
<section aria-labelledby="h-webhooks"><h2 id="h-webhooks">Endpoints</h2>
${model.endpoints.length === 0 ? html`<p class="empty">No webhook yet.</p>` : model.endpoints.map((e) => endpointSection(model, e.endpoint, e.metrics, e.attempts))}
</section>`;
}
