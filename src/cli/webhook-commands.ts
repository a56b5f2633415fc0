import type { Services } from '../app/services.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEndpoint, type WebhookWorkspaces } from '../control/index.js';
import { NotFoundError } from '../errors.js';
import { orgOf, recordCli, text, type Command, type Flags } from './command.js';

const list = (flags: Flags, name: string) =>
  text(flags, name)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** Workspaces by id or name; `all` for every workspace the organization has, now and later. */
async function workspaceIds(services: Services, orgId: string, refs: readonly string[]): Promise<WebhookWorkspaces> {
  if (refs.length === 1 && refs[0]!.toLowerCase() === 'all') return 'all';
  const workspaces = await services.control.workspaces.list(orgId);
  return refs.map((ref) => {
    const match = workspaces.find((w) => w.id === ref || w.name.toLowerCase() === ref.toLowerCase());
    if (!match) throw new NotFoundError('workspace', { workspace: ref });
    return match.id;
  });
}

async function endpointOf(services: Services, orgId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await services.control.webhooks.get(orgId, id);
  if (!endpoint) throw new NotFoundError('webhook', { id });
  return endpoint;
}

const audit = (services: Services, orgId: string, action: string, detail: string) =>
  recordCli(services, { orgId, action, detail });

/** `specbase webhook add|list|test|remove|enable`: an organization's webhook endpoints, audited. */
export const WEBHOOK_COMMANDS: readonly Command[] = [
  {
    name: 'webhook add',
    usage: `webhook add --org ORG_ID --url https://… --events ${WEBHOOK_EVENT_KINDS.join(',')} --workspaces WORKSPACE,…|all   prints the signing secret once`,
    flags: {
      org: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      workspaces: { type: 'string' },
    },
    required: ['org', 'url', 'events', 'workspaces'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const { endpoint, secret } = await services.webhooks.add({
        orgId: org.id,
        url: text(flags, 'url'),
        events: list(flags, 'events'),
        workspaceIds: await workspaceIds(services, org.id, list(flags, 'workspaces')),
        createdBy: null,
      });
      await audit(
        services,
        org.id,
        'webhook.add',
        `added the webhook ${endpoint.id} to ${endpoint.url} for ${endpoint.events.join(', ')}`,
      );
      return { webhook: endpoint, secret };
    },
  },
  {
    name: 'webhook list',
    usage:
      'webhook list --org ORG_ID   endpoints with their figures (deliveries, failures, p50/p95 latency, queue, drops, last error) and latest attempts',
    flags: { org: { type: 'string' } },
    required: ['org'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const endpoints = await services.control.webhooks.list(org.id);
      const metrics = await services.control.webhooks.metrics(org.id);
      const webhooks = await Promise.all(
        endpoints.map(async (endpoint) => ({
          ...endpoint,
          metrics: metrics.find((m) => m.endpointId === endpoint.id) ?? null,
          attempts: await services.control.webhooks.attempts(org.id, endpoint.id, 20),
        })),
      );
      return { orgId: org.id, webhooks };
    },
  },
  {
    name: 'webhook test',
    usage:
      'webhook test --org ORG_ID --id WEBHOOK_ID   asks the running server to send a signed webhook.test event now, and prints its attempt',
    flags: { org: { type: 'string' }, id: { type: 'string' } },
    required: ['org', 'id'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const endpoint = await endpointOf(services, org.id, text(flags, 'id'));
      return { attempt: await services.webhooks.test(org.id, endpoint.id) };
    },
  },
  {
    name: 'webhook enable',
    usage: 'webhook enable --org ORG_ID --id WEBHOOK_ID   after it was disabled for failing a day',
    flags: { org: { type: 'string' }, id: { type: 'string' } },
    required: ['org', 'id'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const endpoint = await endpointOf(services, org.id, text(flags, 'id'));
      const changed = await services.control.webhooks.enable(org.id, endpoint.id);
      if (changed)
        await audit(services, org.id, 'webhook.enable', `enabled the webhook ${endpoint.id} to ${endpoint.url} again`);
      return { id: endpoint.id, enabled: true, changed };
    },
  },
  {
    name: 'webhook remove',
    usage: 'webhook remove --org ORG_ID --id WEBHOOK_ID',
    flags: { org: { type: 'string' }, id: { type: 'string' } },
    required: ['org', 'id'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const endpoint = await endpointOf(services, org.id, text(flags, 'id'));
      await services.control.webhooks.remove(org.id, endpoint.id);
      await audit(services, org.id, 'webhook.remove', `removed the webhook ${endpoint.id} to ${endpoint.url}`);
      return { removed: endpoint.id };
    },
  },
];
