import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError, NotFoundError } from '../../../src/errors.js';
import { newId } from '../../../src/ids.js';
import { BACKENDS, controlBackend, type ControlFixture } from './fixture.js';

describe.each(BACKENDS)('users (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  beforeEach(async () => {
    f = await backendOf.fixture();
  });
  afterEach(async () => f.cleanup());

  it('upserts by issuer and subject, following the provider for email and name', async () => {
    const first = await f.control.users.upsert({
      issuer: 'https://idp',
      subject: 'abc',
      email: ' Ann@Example.COM ',
      name: 'Ann',
    });
    expect(first).toMatchObject({ issuer: 'https://idp', subject: 'abc', email: 'ann@example.com', name: 'Ann' });
    const second = await f.control.users.upsert({
      issuer: 'https://idp',
      subject: 'abc',
      email: 'ann@new.example',
      name: 'Ann B',
    });
    expect(second).toEqual({ ...first, email: 'ann@new.example', name: 'Ann B' });
    const other = await f.control.users.upsert({
      issuer: 'https://other',
      subject: 'abc',
      email: 'x@example.com',
      name: 'X',
    });
    expect(other.id).not.toBe(first.id);
    expect(await f.control.users.bySubject('https://idp', 'abc')).toEqual(second);
    expect(await f.control.users.bySubject('https://idp', 'nope')).toBeUndefined();
  });

  it('looks users up by id and by email case-insensitively', async () => {
    const user = await f.control.users.upsert({
      issuer: 'local',
      subject: newId(),
      email: 'bob@example.com',
      name: 'Bob',
    });
    expect(await f.control.users.get(user.id)).toEqual(user);
    expect(await f.control.users.get(newId())).toBeUndefined();
    expect(await f.control.users.byEmail('BOB@example.com ')).toEqual(user);
    expect(await f.control.users.byEmail('nobody@example.com')).toBeUndefined();
  });

  it('falls back to the email when the provider gives no name', async () => {
    const user = await f.control.users.upsert({ issuer: 'local', subject: 's', email: 'n@example.com', name: '  ' });
    expect(user.name).toBe('n@example.com');
  });

  it('rejects missing issuer, subject or a malformed email', async () => {
    const base = { issuer: 'local', subject: 's', email: 'a@example.com', name: 'A' };
    await expect(f.control.users.upsert({ ...base, issuer: ' ' })).rejects.toThrow(InvalidInputError);
    await expect(f.control.users.upsert({ ...base, subject: '' })).rejects.toThrow(InvalidInputError);
    await expect(f.control.users.upsert({ ...base, email: 'not-an-email' })).rejects.toThrow(InvalidInputError);
  });

  it('verifies passwords against a salted scrypt hash, never storing the password', async () => {
    const user = await f.control.users.upsert({ issuer: 'local', subject: 's', email: 'pw@example.com', name: 'Pw' });
    await f.control.users.setPassword(user.id, 'correct horse battery');
    expect(await f.control.users.verifyPassword('PW@example.com', 'correct horse battery')).toEqual(user);
    expect(await f.control.users.verifyPassword('pw@example.com', 'correct horse batterY')).toBeUndefined();
    expect(await f.control.users.verifyPassword('nobody@example.com', 'correct horse battery')).toBeUndefined();

    const hashOf = async (userId: string) =>
      (await f.control.db.get<{ hash: string }>('SELECT hash FROM user_passwords WHERE user_id = ?', [userId]))!.hash;
    const stored = await hashOf(user.id);
    expect(stored).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain('correct horse');

    const other = await f.control.users.upsert({
      issuer: 'local',
      subject: 't',
      email: 'pw2@example.com',
      name: 'Pw2',
    });
    await f.control.users.setPassword(other.id, 'correct horse battery');
    const otherStored = await hashOf(other.id);
    expect(otherStored).not.toBe(stored);
  });

  it('replaces a password so that the old one stops working', async () => {
    const user = await f.control.users.upsert({ issuer: 'local', subject: 's', email: 'r@example.com', name: 'R' });
    await f.control.users.setPassword(user.id, 'first password');
    await f.control.users.setPassword(user.id, 'second password');
    expect(await f.control.users.verifyPassword('r@example.com', 'first password')).toBeUndefined();
    expect(await f.control.users.verifyPassword('r@example.com', 'second password')).toEqual(user);
  });

  it('rejects short passwords and unknown users', async () => {
    const user = await f.control.users.upsert({ issuer: 'local', subject: 's', email: 's@example.com', name: 'S' });
    await expect(f.control.users.setPassword(user.id, 'short')).rejects.toThrow(InvalidInputError);
    await expect(f.control.users.setPassword(newId(), 'long enough')).rejects.toThrow(NotFoundError);
  });
});
