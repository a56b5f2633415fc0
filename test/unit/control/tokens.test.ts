import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../../src/control/index.js';
import { InvalidInputError, NotFoundError } from '../../../src/errors.js';
import { newId } from '../../../src/ids.js';
import { afterAnotherProcessCommits, BACKENDS, controlBackend, later, type ControlFixture } from './fixture.js';

const DAY = 86_400_000;

describe.each(BACKENDS)('personal access tokens (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  let ann: User;
  beforeEach(async () => {
    f = await backendOf.fixture();
    ann = await f.control.users.upsert({ issuer: 'local', subject: 'ann', email: 'ann@example.com', name: 'Ann' });
  });
  afterEach(async () => f.cleanup());

  it('issues an sbp_ secret of 32 random bytes and verifies it to its user', async () => {
    const { secret, token } = await f.control.tokens.create({ userId: ann.id, name: 'laptop' });
    expect(secret).toMatch(/^sbp_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(4), 'base64url')).toHaveLength(32);
    expect(token).toEqual({
      id: token.id,
      userId: ann.id,
      name: 'laptop',
      createdAt: f.clock.now.toISOString(),
      expiresAt: new Date(f.clock.now.getTime() + 90 * DAY).toISOString(),
      lastUsedAt: null,
      revokedAt: null,
      readOnly: false,
    });
    const verified = await f.control.tokens.verify(secret);
    expect(verified?.user).toEqual(ann);
    expect(verified?.token.id).toBe(token.id);
    const second = await f.control.tokens.create({ userId: ann.id, name: 'laptop' });
    expect(second.secret).not.toBe(secret);
  });

  it('stores only the sha256 of the secret', async () => {
    const { secret } = await f.control.tokens.create({ userId: ann.id, name: 'ci' });
    const rows = await f.control.db.all('SELECT * FROM personal_access_tokens');
    const raw = JSON.stringify(rows);
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain(secret.slice(4));
    expect(rows).toMatchObject([{ token_hash: createHash('sha256').update(secret).digest('hex') }]);
  });

  it('records the last use', async () => {
    const { secret, token } = await f.control.tokens.create({ userId: ann.id, name: 'ci' });
    later(f.clock, 60_000);
    const verified = await f.control.tokens.verify(secret);
    expect(verified?.token.lastUsedAt).toBe(f.clock.now.toISOString());
    expect((await f.control.tokens.list(ann.id)).find((t) => t.id === token.id)?.lastUsedAt).toBe(
      f.clock.now.toISOString(),
    );
  });

  it('writes the last use at most once a minute', async () => {
    const { secret, token } = await f.control.tokens.create({ userId: ann.id, name: 'ci' });
    await f.control.tokens.verify(secret);
    const first = f.clock.now.toISOString();
    later(f.clock, 59_000);
    expect((await f.control.tokens.verify(secret))?.token.lastUsedAt).toBe(first);
    expect((await f.control.tokens.list(ann.id)).find((t) => t.id === token.id)?.lastUsedAt).toBe(first);
    later(f.clock, 1_000);
    expect((await f.control.tokens.verify(secret))?.token.lastUsedAt).toBe(f.clock.now.toISOString());
    expect((await f.control.tokens.list(ann.id)).find((t) => t.id === token.id)?.lastUsedAt).toBe(
      f.clock.now.toISOString(),
    );
  });

  it('rejects unknown, malformed and tampered secrets', async () => {
    const { secret } = await f.control.tokens.create({ userId: ann.id, name: 'ci' });
    const flipped = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    expect(await f.control.tokens.verify(flipped)).toBeUndefined();
    expect(await f.control.tokens.verify(secret.slice(4))).toBeUndefined();
    expect(await f.control.tokens.verify('')).toBeUndefined();
    expect(await f.control.tokens.verify(`sbp_${'x'.repeat(43)}`)).toBeUndefined();
  });

  it('stops working at its expiry date', async () => {
    const expiresAt = new Date(f.clock.now.getTime() + 30 * DAY);
    const { secret, token } = await f.control.tokens.create({ userId: ann.id, name: 'month', expiresAt });
    expect(token.expiresAt).toBe(expiresAt.toISOString());
    later(f.clock, 30 * DAY - 1);
    expect(await f.control.tokens.verify(secret)).toBeDefined();
    later(f.clock, 1);
    expect(await f.control.tokens.verify(secret)).toBeUndefined();
  });

  it('expires after 90 days unless another date or none (null) is asked for', async () => {
    const plain = await f.control.tokens.create({ userId: ann.id, name: 'default' });
    const forever = await f.control.tokens.create({ userId: ann.id, name: 'forever', expiresAt: null });
    expect(forever.token.expiresAt).toBeNull();
    later(f.clock, 90 * DAY - 1);
    expect(await f.control.tokens.verify(plain.secret)).toBeDefined();
    later(f.clock, 1);
    expect(await f.control.tokens.verify(plain.secret)).toBeUndefined();
    later(f.clock, 3650 * DAY);
    expect(await f.control.tokens.verify(forever.secret)).toBeDefined();
  });

  it('stops working once revoked, and only its owner can revoke it', async () => {
    const bob = await f.control.users.upsert({
      issuer: 'local',
      subject: 'bob',
      email: 'bob@example.com',
      name: 'Bob',
    });
    const { secret, token } = await f.control.tokens.create({ userId: ann.id, name: 'ci' });
    expect(await f.control.tokens.revoke(token.id, bob.id)).toBe(false);
    expect(await f.control.tokens.verify(secret)).toBeDefined();
    expect(await f.control.tokens.revoke(token.id, ann.id)).toBe(true);
    expect(await f.control.tokens.revoke(token.id, ann.id)).toBe(false);
    expect(await f.control.tokens.verify(secret)).toBeUndefined();
    expect((await f.control.tokens.list(ann.id))[0]?.revokedAt).toBe(f.clock.now.toISOString());
  });

  it('stops working within milliseconds when another process revokes it, though every request verifies it', async () => {
    const { secret, token } = await f.control.tokens.create({ userId: ann.id, name: 'ci' });
    for (let i = 0; i < 3; i++) expect(await f.control.tokens.verify(secret)).toBeDefined();
    const cli = await f.reopen();
    expect(await cli.tokens.revoke(token.id, ann.id)).toBe(true);
    await afterAnotherProcessCommits();
    expect(await f.control.tokens.verify(secret)).toBeUndefined();
  });

  it('lists a user’s tokens newest first, without secrets', async () => {
    const first = await f.control.tokens.create({ userId: ann.id, name: 'one' });
    later(f.clock, 1000);
    const second = await f.control.tokens.create({ userId: ann.id, name: 'two' });
    const listed = await f.control.tokens.list(ann.id);
    expect(listed.map((t) => t.id)).toEqual([second.token.id, first.token.id]);
    expect(JSON.stringify(listed)).not.toContain('sbp_');
    expect(await f.control.tokens.list(newId())).toEqual([]);
  });

  it('rejects a past expiry, an empty name and an unknown user', async () => {
    await expect(
      f.control.tokens.create({ userId: ann.id, name: 'old', expiresAt: new Date(f.clock.now.getTime() - 1) }),
    ).rejects.toThrow(InvalidInputError);
    await expect(f.control.tokens.create({ userId: ann.id, name: 'bad', expiresAt: new Date('nope') })).rejects.toThrow(
      InvalidInputError,
    );
    await expect(f.control.tokens.create({ userId: ann.id, name: ' ' })).rejects.toThrow(InvalidInputError);
    await expect(f.control.tokens.create({ userId: newId(), name: 'ghost' })).rejects.toThrow(NotFoundError);
  });
});
