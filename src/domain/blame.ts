import type { HistoryEntry } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { BlameView } from './types.js';

const lineCount = (body: string): number => (body === '' ? 0 : body.replace(/\n$/, '').split('\n').length);

/**
 * Each line of the artifact's document with the change that last touched it, as `git blame`
 * tells engineers. The file's frontmatter lines are the service's own and are left out.
 */
export async function blameArtifact(deps: DomainDeps, scope: Scope, id: string): Promise<BlameView> {
  const meta = await scope.readable(id);
  const [record, history] = await Promise.all([
    deps.store.read(scope.orgId, meta.id),
    deps.store.history(scope.orgId, meta.id),
  ]);
  const lines = await deps.blame.blame(scope.orgId, record.path, record.version);
  const entries = new Map<string, HistoryEntry>(history.map((e) => [e.commit, e]));
  const bodyStart = lines.length - lineCount(record.body);
  return {
    version: record.version,
    lines: lines.slice(Math.max(0, bodyStart)).map((l, i) => {
      const entry = entries.get(l.commit);
      return {
        line: i + 1,
        text: l.text,
        commit: l.commit,
        author: entry?.author ?? l.author,
        authoredAt: entry?.authoredAt ?? l.authoredAt,
        ...(entry?.client ? { client: entry.client } : {}),
        ...(entry ? { subject: entry.message.split('\n')[0] ?? '' } : {}),
      };
    }),
  };
}
