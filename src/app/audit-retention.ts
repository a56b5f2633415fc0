import type { ControlPlane } from '../control/types.js';
import type { Logger } from '../log.js';

/** Often enough that the log never holds much more than its retention; rare enough to cost nothing. */
const PRUNE_EVERY_MS = 6 * 3600_000;

/**
 * Keeps the audit log, and the webhooks' log of settled deliveries, to the audit retention
 * (SPECBASE_AUDIT_RETENTION_DAYS): older rows are deleted now and every few hours. Replicas on
 * one database may each do it; a delete twice is harmless. Returns the stop function, which
 * waits for a prune under way.
 */
export function keepAuditRetention(
  control: Pick<ControlPlane, 'audit' | 'webhooks'>,
  days: number,
  log: Logger,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const pruneBoth = async (before: Date) => ({
    audit: await control.audit.prune(before),
    webhookMessages: await control.webhooks.prune(before),
  });
  const prune = () =>
    (running = pruneBoth(new Date(Date.now() - days * 86_400_000))
      .then(
        (deleted) =>
          (deleted.audit > 0 || deleted.webhookMessages > 0) &&
          log.info({ deleted, retentionDays: days }, 'audit rows past their retention deleted'),
      )
      .catch((error: unknown) => log.error({ err: error }, 'pruning the audit log failed')));
  void prune();
  const timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
