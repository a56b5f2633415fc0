import { isChangeRequestNumber, isUuid } from '../../ids.js';
import { changeRequestRef, MAIN_REF } from '../git/index.js';

/**
 * The store keeps a state per key: an organization's id for its `main`, or `<org>@cr/<n>` for
 * a change request's branch. Everything the store does to `main` it does to such a branch by
 * the same code, under the branch's own lock and in its own cache directory.
 */
const SEPARATOR = '@cr/';

export const changeRequestKey = (orgId: string, number: number): string =>
  `${orgId.toLowerCase()}${SEPARATOR}${number}`;

export interface StoreKey {
  readonly orgId: string;
  readonly ref: string;
  /** Set for a change request's branch. */
  readonly changeRequest?: number;
}

/** What a key names; undefined when it is not one (a malformed organization id above all). */
export function parseStoreKey(key: string): StoreKey | undefined {
  const at = key.indexOf(SEPARATOR);
  if (at < 0) return isUuid(key) ? { orgId: key.toLowerCase(), ref: MAIN_REF } : undefined;
  const orgId = key.slice(0, at);
  const digits = key.slice(at + SEPARATOR.length);
  const number = /^[1-9]\d*$/.test(digits) ? Number(digits) : NaN;
  if (!isUuid(orgId) || !isChangeRequestNumber(number)) return undefined;
  return { orgId: orgId.toLowerCase(), ref: changeRequestRef(number), changeRequest: number };
}

/** Whether a key names an organization's `main` (what listeners of commits and closes hear of). */
export const isMainKey = (key: string): boolean => !key.includes(SEPARATOR);
