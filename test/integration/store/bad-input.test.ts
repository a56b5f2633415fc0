import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, InvalidInputError, NotFoundError, PayloadTooLargeError } from '../../../src/errors.js';
import { GitStore } from '../../../src/store/index.js';
import { alice, capabilityInput, git, openStoreFixture, ORG, WORKSPACE, type StoreFixture } from './fixture.js';

let fx: StoreFixture;
let capId: string;
beforeEach(async () => {
  fx = await openStoreFixture();
  capId = (await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice)).artifact.id;
});
afterEach(async () => {
  await fx.close();
});

/** Every case must fail with a typed error and leave main (and the object count) untouched. */
async function expectNothingWritten(
  attempt: () => Promise<unknown>,
  error: new (...args: never[]) => Error,
  message?: RegExp,
) {
  const head = git(fx.gitdir, 'rev-parse', 'main');
  const objects = git(fx.gitdir, 'count-objects');
  const rejection = expect(attempt()).rejects;
  await rejection.toBeInstanceOf(error);
  if (message) await expect(attempt()).rejects.toThrow(message);
  expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(head);
  expect(git(fx.gitdir, 'count-objects')).toBe(objects);
}

describe('GitStore refuses bad input and writes nothing', () => {
  it('treats malformed, unknown and path-like ids as not found without touching the filesystem', async () => {
    for (const id of [
      'nope',
      '../product',
      '../../etc/passwd',
      `${capId}/../x`,
      '',
      '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5dz',
    ]) {
      await expect(fx.store.read(ORG, id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(fx.store.history(ORG, id)).rejects.toThrow('artifact not found');
      expect(await fx.store.meta(ORG, id)).toBeUndefined();
      await expectNothingWritten(
        () => fx.store.update(ORG, id, { body: '# x\n', verb: 'edit' }, alice),
        NotFoundError,
        /^artifact not found$/,
      );
    }
    const unknown = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
    await expect(fx.store.read(ORG, unknown)).rejects.toThrow('artifact not found');
    await expectNothingWritten(
      () => fx.store.update(ORG, unknown, { body: '# x\n', verb: 'edit' }, alice),
      NotFoundError,
    );
    await expectNothingWritten(
      () =>
        fx.store.create(
          ORG,
          { type: 'feature', parentId: fx.productId, workspaceId: WORKSPACE, title: 'F', body: '# F\n' },
          alice,
        ),
      NotFoundError,
    );
    await expect(fx.store.catalog('../orgs')).rejects.toThrow('organization not found');
    await expect(fx.store.catalog('5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d')).rejects.toThrow('organization not found');
    expect(await readdir(path.join(fx.dataDir, 'orgs'))).toEqual([`${ORG}.git`]);
  });

  it('refuses oversized documents, bad titles and no-op edits', async () => {
    const small = new GitStore({ dataDir: fx.dataDir, maxDocumentBytes: 64 });
    const big = `# Payments\n\n${'é'.repeat(40)}\n`;
    await expectNothingWritten(
      () => small.update(ORG, capId, { body: big, verb: 'edit' }, alice),
      PayloadTooLargeError,
      /the document is 93 bytes; the limit is 64 bytes/,
    );
    await expectNothingWritten(
      () => small.create(ORG, { ...capabilityInput(fx.productId, 'X'), body: big }, alice),
      PayloadTooLargeError,
    );
    await expectNothingWritten(
      () => fx.store.create(ORG, { ...capabilityInput(fx.productId, 'x'), body: '', title: 'a\nb' }, alice),
      InvalidInputError,
      /one line of text/,
    );
    await expectNothingWritten(
      () => fx.store.create(ORG, { ...capabilityInput(fx.productId, 'x'), body: '', title: 't'.repeat(201) }, alice),
      InvalidInputError,
      /limit is 200/,
    );
    await expectNothingWritten(
      () => fx.store.update(ORG, capId, { body: `# ${'t'.repeat(201)}\n`, verb: 'edit' }, alice),
      InvalidInputError,
    );
    const current = await fx.store.read(ORG, capId);
    await expectNothingWritten(
      () => fx.store.update(ORG, capId, { body: current.body, verb: 'edit' }, alice),
      InvalidInputError,
      /^no change: the document already has this content$/,
    );
    await expectNothingWritten(
      () => fx.store.update(ORG, capId, { body: '# New\n', verb: 'edit', expectedVersion: fx.productId }, alice),
      ConflictError,
      /changed since version/,
    );
    await expectNothingWritten(
      () =>
        fx.store.create(
          ORG,
          { type: 'product', parentId: null, workspaceId: WORKSPACE, title: 'P2', body: '# P2\n' },
          alice,
        ),
      InvalidInputError,
    );
    await expectNothingWritten(
      () => fx.store.create(ORG, { ...capabilityInput(fx.productId, 'Dup'), id: capId }, alice),
      ConflictError,
    );
  });

  it('never evaluates ---js frontmatter put into the repository with the git CLI', async () => {
    const clone = await mkdtemp(path.join(tmpdir(), 'specbase-clone-'));
    const marker = path.join(clone, 'evaluated');
    const payload = (id: string) =>
      `---js\n{ id: "${id}", type: "capability", parent: null, workspace: "${WORKSPACE}", title: "Evil", created: "2024-01-01T00:00:00.000Z", pwned: (globalThis.__specbasePwned = true, require("fs").writeFileSync(${JSON.stringify(marker)}, "x")) }\n---\n# Evil\n`;
    try {
      execFileSync('git', ['clone', '-q', fx.gitdir, path.join(clone, 'work')]);
      const work = (...args: string[]) =>
        execFileSync('git', ['-C', path.join(clone, 'work'), ...args], { encoding: 'utf8' });
      const capPath = (await fx.store.meta(ORG, capId))!.path;
      await writeFile(path.join(clone, 'work', capPath), payload(capId));
      await writeFile(
        path.join(clone, 'work', 'capabilities', 'evil-12345678.md'),
        payload('12345678-1234-4234-8234-123456789abc'),
      );
      work('add', '.');
      work(
        '-c',
        'user.name=Mallory',
        '-c',
        'user.email=m@example.com',
        'commit',
        '-q',
        '-m',
        'Sneak javascript frontmatter in',
      );
      work('push', '-q', 'origin', 'main');

      const fresh = new GitStore({ dataDir: fx.dataDir });
      for (const store of [fx.store, fresh]) {
        expect((await store.catalog(ORG)).map((m) => m.title)).toEqual(['Acme', 'Payments']);
        await expect(store.read(ORG, capId)).rejects.toThrow(/frontmatter in js is refused.*never evaluated/);
        await expectNothingWritten(
          () => store.update(ORG, capId, { body: '# Payments\n\nfix\n', verb: 'edit' }, alice),
          InvalidInputError,
          /refused/,
        );
      }
      expect((globalThis as { __specbasePwned?: boolean }).__specbasePwned).toBeUndefined();
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(clone, { recursive: true, force: true });
    }
  });
});
