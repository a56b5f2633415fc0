import { describe, expect, it } from 'vitest';
import {
  assertCanRead,
  assertCanWrite,
  canManage,
  canRead,
  canReadAll,
  canWrite,
  effectiveRole,
  isWorkspaceRole,
  readableWorkspaces,
  WORKSPACE_ROLES,
} from '../../../src/access/index.js';
import type { Principal, WorkspaceRole } from '../../../src/access/principal.js';
import { NotFoundError, PermissionDeniedError } from '../../../src/errors.js';

const HERE = 'ws-here';
const ELSEWHERE = 'ws-elsewhere';

const principal = (role: WorkspaceRole | undefined, isOwner = false): Principal => ({
  userId: 'u',
  name: 'U',
  email: 'u@example.com',
  orgId: 'o',
  isOwner,
  roles: new Map(role ? [[HERE, role]] : []),
});

type Case = { who: string; p: Principal; read: boolean; write: boolean; manage: boolean };
const MATRIX: Case[] = [
  { who: 'no role', p: principal(undefined), read: false, write: false, manage: false },
  { who: 'viewer', p: principal('viewer'), read: true, write: false, manage: false },
  { who: 'editor', p: principal('editor'), read: true, write: true, manage: false },
  { who: 'admin', p: principal('admin'), read: true, write: true, manage: true },
  { who: 'owner without roles', p: principal(undefined, true), read: true, write: true, manage: true },
  { who: 'owner who is also a viewer', p: principal('viewer', true), read: true, write: true, manage: true },
];

describe('access', () => {
  it.each(MATRIX)('$who: read $read, write $write, manage $manage in the workspace', ({ p, read, write, manage }) => {
    expect(canRead(p, HERE)).toBe(read);
    expect(canWrite(p, HERE)).toBe(write);
    expect(canManage(p, HERE)).toBe(manage);
  });

  it.each(MATRIX)('$who: a role in one workspace grants nothing in another', ({ p }) => {
    expect(canRead(p, ELSEWHERE)).toBe(p.isOwner);
    expect(canWrite(p, ELSEWHERE)).toBe(p.isOwner);
    expect(canManage(p, ELSEWHERE)).toBe(p.isOwner);
  });

  it.each(MATRIX)('$who: assertCanRead hides what cannot be read as "artifact not found"', ({ p, read }) => {
    if (read) expect(() => assertCanRead(p, HERE)).not.toThrow();
    else expect(() => assertCanRead(p, HERE)).toThrow(new NotFoundError('artifact'));
  });

  it.each(MATRIX)('$who: assertCanWrite', ({ p, read, write }) => {
    const attempt = () => assertCanWrite(p, HERE);
    if (write) expect(attempt).not.toThrow();
    else if (read) expect(attempt).toThrow(PermissionDeniedError);
    else expect(attempt).toThrow(NotFoundError);
  });

  it('an owner is admin everywhere', () => {
    expect(effectiveRole(principal('viewer', true), ELSEWHERE)).toBe('admin');
    expect(effectiveRole(principal('editor'), HERE)).toBe('editor');
    expect(effectiveRole(principal('editor'), ELSEWHERE)).toBeUndefined();
  });

  it('readableWorkspaces keeps only the readable ones of the given list', () => {
    const all = [HERE, ELSEWHERE];
    expect(readableWorkspaces(principal('viewer'), all)).toEqual(new Set([HERE]));
    expect(readableWorkspaces(principal(undefined), all)).toEqual(new Set());
    expect(readableWorkspaces(principal(undefined, true), all)).toEqual(new Set(all));
  });

  it('canReadAll needs every workspace', () => {
    const both: Principal = {
      ...principal('viewer'),
      roles: new Map([
        [HERE, 'viewer'],
        [ELSEWHERE, 'editor'],
      ]),
    };
    expect(canReadAll(both, [HERE, ELSEWHERE])).toBe(true);
    expect(canReadAll(principal('admin'), [HERE, ELSEWHERE])).toBe(false);
    expect(canReadAll(principal(undefined, true), [HERE, ELSEWHERE])).toBe(true);
  });

  it('knows the three roles and nothing else', () => {
    expect(WORKSPACE_ROLES).toEqual(['viewer', 'editor', 'admin']);
    expect(WORKSPACE_ROLES.every(isWorkspaceRole)).toBe(true);
    expect(['owner', 'Admin', '', undefined, 1].some(isWorkspaceRole)).toBe(false);
  });
});
