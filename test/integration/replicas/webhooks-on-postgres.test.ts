import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openControlPlane, type SqlControlPlane } from '../../../src/control/index.js';
import { runCli } from '../../support/cli.js';
import { selfSignedCertificate, type SelfSigned } from '../https/certificate.js';
import { callTool } from '../web/support.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { connectMcp, startCluster, waitUntil, type Cluster } from './cluster.js';

/** Two replicas on one PostgreSQL, both delivering the outbox: each event reaches the receiver once. */
describe('webhooks with two replicas on PostgreSQL', () => {
  let cert: SelfSigned;
  let receiver: Receiver;
  let cluster: Cluster;
  let control: SqlControlPlane;
  const clients: Client[] = [];

  beforeAll(async () => {
    cert = await selfSignedCertificate();
    receiver = await startReceiver(cert);
    cluster = await startCluster(2, {
      SPECBASE_WEBHOOK_CA_FILE: cert.certFile,
      SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST: `127.0.0.1:${receiver.port}`,
      SPECBASE_WEBHOOK_RETRY_SECONDS: '0.3',
    });
    control = await openControlPlane({ databaseUrl: cluster.databaseUrl });
  }, 180_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await control?.close();
    await cluster?.close();
    await receiver?.stop().catch(() => undefined);
  });

  it('delivers every event exactly once, whichever replica made the commit and whichever claims it', async () => {
    const { stdout } = await runCli(
      [
        'webhook',
        'add',
        '--org',
        cluster.demo.orgId,
        '--url',
        receiver.url('cluster'),
        '--events',
        'edit',
        '--workspaces',
        'all',
        '--json',
        '--data-dir',
        cluster.dataDir,
        '--database-url',
        cluster.databaseUrl,
      ],
      // Where an endpoint points is checked when it is added: the CLI reads the replicas' settings.
      {
        ...process.env,
        SPECBASE_LOG_LEVEL: 'silent',
        SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST: `127.0.0.1:${receiver.port}`,
      },
    );
    receiver.secrets.set('cluster', (JSON.parse(stdout) as { secret: string }).secret);
    for (const replica of cluster.replicas)
      clients.push(await connectMcp(replica.url, cluster.demo, `replica-${replica.port}`));
    const caps = await callTool(clients[0]!, 'specbase_list_capabilities', { productId: cluster.demo.productId });
    const capabilityId = (caps.items as { id: string }[])[0]!.id;
    const featureId = (
      (await callTool(clients[0]!, 'specbase_list_features', { capabilityId })).items as { id: string }[]
    )[0]!.id;
    const requirements = (
      (await callTool(clients[0]!, 'specbase_list_requirements', { featureId })).items as { id: string }[]
    ).slice(0, 2);

    // Commits on both replicas, each announcing to its own dispatcher…
    const commits: string[] = [];
    for (let i = 0; i < 10; i++) {
      const client = clients[i % 2]!;
      const requirementId = requirements[i % 2]!.id;
      const current = (await callTool(client, 'specbase_read_requirement', { requirementId, mode: 'full' }))
        .content as string;
      const edited = await callTool(client, 'specbase_edit_requirement', {
        requirementId,
        patch: `@@\n ${current.split('\n')[0]}\n+\n+Edit ${i}.\n`,
      });
      commits.push(edited.version as string);
    }
    // …and a burst written at once, which both replicas' dispatchers find on their next poll.
    for (let i = 0; i < 30; i++) {
      await control.webhooks.enqueue({
        orgId: cluster.demo.orgId,
        kind: 'edit',
        artifact: {
          id: requirements[0]!.id,
          type: 'requirement',
          title: 'Burst',
          url: 'https://example.invalid/',
          workspaceId: (await control.workspaces.defaultOf(cluster.demo.orgId)).id,
        },
        commit: `burst-${i}`,
        author: { name: 'Burst', email: 'burst@example.com' },
        client: 'test',
        at: new Date().toISOString(),
      });
    }
    await waitUntil(
      async () => receiver.of('cluster').length >= 40,
      30_000,
      () => `received ${receiver.of('cluster').length} of 40`,
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const events = receiver.of('cluster');
    expect(events).toHaveLength(40);
    expect(new Set(events.map((e) => e.id)).size).toBe(40);
    expect(
      events
        .filter((e) => !String(e.data.commit).startsWith('burst-'))
        .map((e) => e.data.commit)
        .sort(),
    ).toEqual([...commits].sort());
    expect(receiver.rejected).toEqual([]);
    // One attempt per message, each settled: no replica delivered a message another held.
    const hookId = (await control.webhooks.list(cluster.demo.orgId))[0]!.id;
    const attempts = await control.webhooks.attempts(cluster.demo.orgId, hookId, 100);
    expect(attempts).toHaveLength(40);
    expect(attempts.every((a) => a.ok && a.state === 'delivered')).toBe(true);
  });
});
