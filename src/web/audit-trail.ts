import type { ControlPlane } from '../control/types.js';
import { SpecbaseError } from '../errors.js';
import type { OrgContext } from './context.js';

/** What a change made in the browser left: the artifact it touched and the commit it wrote. */
export interface WebOutcome {
  readonly artifactId?: string | null;
  readonly commit?: string | null;
  /** What a change outside artifacts did (a member's roles, a workspace's name), in a sentence. */
  readonly detail?: string;
}

/**
 * Runs one change a person makes in the browser and records it in the audit log (kind `web`,
 * client `web`), as the tool loop records an assistant's: the artifact, the commit, the time it
 * took, and for a refusal its error class and sentence. The change's own error is rethrown.
 */
export async function audited<T>(
  control: Pick<ControlPlane, 'audit'>,
  ctx: Pick<OrgContext, 'user' | 'org'>,
  action: string,
  artifactId: string | null,
  work: () => Promise<T>,
  outcomeOf: (result: T) => WebOutcome,
): Promise<T> {
  const started = performance.now();
  const record = (outcome: 'ok' | 'error', done: WebOutcome, detail: string | null) =>
    control.audit.record({
      kind: 'web',
      userId: ctx.user.id,
      orgId: ctx.org.id,
      action,
      artifactId: done.artifactId ?? artifactId,
      commit: done.commit ?? null,
      client: 'web',
      durationMs: performance.now() - started,
      outcome,
      detail,
    });
  try {
    const result = await work();
    const done = outcomeOf(result);
    await record('ok', done, done.detail ?? null);
    return result;
  } catch (error) {
    const errorClass = error instanceof SpecbaseError ? error.code : 'internal_error';
    await record('error', {}, `${errorClass}: ${error instanceof Error ? error.message : String(error)}`).catch(
      () => undefined,
    );
    throw error;
  }
}
