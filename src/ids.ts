import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const OBJECT_ID = /^[0-9a-f]{40}$/;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** A full object id as git writes it (40 lower-case hex digits): a commit, a tree or a blob. */
export const isObjectId = (value: unknown): value is string => typeof value === 'string' && OBJECT_ID.test(value);

export const newId = (): string => randomUUID();
