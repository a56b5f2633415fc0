import type { Principal } from '../access/principal.js';
import type { ControlPlane } from '../control/types.js';
import type { ReceivedPush } from '../store/types.js';

/**
 * The audit log's view of a push: a row per commit that landed on `main` (kind `git`, action
 * `push`), by the pusher, naming the commit, the one artifact it changed when it changed one,
 * and its author when that is someone else; or one row saying why the push was refused.
 */
export async function recordPushAudit(
  control: ControlPlane,
  push: {
    pusher: Principal;
    orgId: string;
    client: string | undefined;
    durationMs: number;
    received?: ReceivedPush;
    failure: string | undefined;
  },
): Promise<void> {
  const base = {
    kind: 'git',
    userId: push.pusher.userId,
    orgId: push.orgId,
    action: 'push',
    client: push.client ?? null,
    durationMs: push.durationMs,
  };
  if (push.failure !== undefined || !push.received?.landed) {
    await control.audit.record({
      ...base,
      artifactId: null,
      commit: null,
      outcome: 'error',
      detail: push.failure ?? 'main did not move: git could not update it',
    });
    return;
  }
  const { commits, changes } = push.received;
  // Recorded together, so that a long push's rows share the audit log's batched inserts.
  await Promise.all(
    commits.map((commit) => {
      const artifacts = new Set(
        changes.filter((c) => c.result.commit === commit.commit).map((c) => c.result.artifact.id),
      );
      const byOther = commit.author.email.toLowerCase() !== push.pusher.email.toLowerCase();
      return control.audit.record({
        ...base,
        artifactId: artifacts.size === 1 ? [...artifacts][0]! : null,
        commit: commit.commit,
        outcome: 'ok',
        detail: byOther
          ? `${commit.subject} (authored by ${commit.author.name} <${commit.author.email}>)`
          : commit.subject,
      });
    }),
  );
}
