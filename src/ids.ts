import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const OBJECT_ID = /^[0-9a-f]{40}$/;

/** A change request's number, as people type it after `cr/`: 1 to 999,999,999. */
export const isChangeRequestNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= 999_999_999;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** A full object id as git writes it (40 lower-case hex digits): a commit, a tree or a blob. */
export const isObjectId = (value: unknown): value is string => typeof value === 'string' && OBJECT_ID.test(value);

export const newId = (): string => randomUUID();
