import type { ChangeSummary } from './types.js';

/** The person's summary and the commit a revert or restore names, as written by the store's message. */
export function messageFacts(message: string): Pick<ChangeSummary, 'summary' | 'undoes'> {
  const paragraphs = message.split(/\n\s*\n/).slice(1);
  const source = /^This (reverts commit|restores the version of commit) ([0-9a-f]{40})\.$/m.exec(message);
  const undoes = source
    ? { kind: source[1]!.startsWith('reverts') ? ('revert' as const) : ('restore' as const), commit: source[2]! }
    : undefined;
  const prose = paragraphs.find((p) => !/^This (reverts|restores) /.test(p) && !/^[A-Za-z][A-Za-z0-9-]*: /m.test(p));
  return { ...(prose ? { summary: prose.trim() } : {}), ...(undoes ? { undoes } : {}) };
}
