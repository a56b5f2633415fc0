import { isChangeRequestNumber } from '../ids.js';

/** What a pushed ref name may update: `main`, a change request's branch, or a new change request. */
export type PushTarget =
  | { readonly kind: 'main' }
  | { readonly kind: 'changeRequest'; readonly number: number }
  | { readonly kind: 'newChangeRequest'; readonly ref: string }
  | { readonly kind: 'refused'; readonly reason: string };

const MAIN = 'refs/heads/main';
const UNDER_CR = /^refs\/heads\/cr\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})$/;

/** The one place that decides, ref by ref, what a push may update. */
export function pushTargetOf(ref: string): PushTarget {
  if (ref === MAIN) return { kind: 'main' };
  const name = UNDER_CR.exec(ref)?.[1];
  if (name !== undefined && /^\d+$/.test(name)) {
    const number = Number(name);
    if (isChangeRequestNumber(number)) return { kind: 'changeRequest', number };
  } else if (name !== undefined) {
    return { kind: 'newChangeRequest', ref };
  }
  return {
    kind: 'refused',
    reason:
      `${ref} cannot be pushed: Specbase takes main, a change request's branch cr/{number}, ` +
      'or a new branch under cr/ (such as cr/my-change), which opens a change request',
  };
}
