import type { ControlPlane } from '../control/types.js';

/** One audit entry of kind 'git': a clone or fetch served, or access (or a push) refused. */
export async function recordGitAudit(
  control: ControlPlane,
  entry: {
    userId: string;
    orgId: string;
    action: 'clone' | 'fetch' | 'access' | 'push';
    commit?: string;
    client?: string;
    durationMs?: number;
    outcome: 'ok' | 'error';
    detail?: string;
  },
): Promise<void> {
  await control.audit.record({
    kind: 'git',
    userId: entry.userId,
    orgId: entry.orgId,
    action: entry.action,
    artifactId: null,
    commit: entry.commit ?? null,
    client: entry.client ?? null,
    durationMs: entry.durationMs ?? null,
    outcome: entry.outcome,
    detail: entry.detail ?? null,
  });
}
