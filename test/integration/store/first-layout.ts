import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ArtifactType } from '../../../src/artifacts/index.js';
import {
  artifactCommitMessage,
  folderCommitMessage,
  renderArtifactFile,
  renderFolderFile,
} from '../../../src/store/layout/index.js';
import type { ChangeContext } from '../../../src/store/types.js';
import { WORKSPACE } from './fixture.js';

/**
 * Repositories in the first, flat layout (`<type dir>/<slug>-<id8>.md`, pages nested in folder
 * directories with `_folder.md` records), written with native `git fast-import` exactly as the
 * service wrote them before the sharded layout: same frontmatter, messages and trailers.
 */
export interface FirstLayoutCommit {
  readonly ctx: ChangeContext;
  readonly message: string;
  readonly files: readonly { readonly path: string; readonly content: string }[];
}

const CREATED = '2024-05-06T07:08:09.000Z';

export const artifactFile = (input: {
  id: string;
  type: ArtifactType;
  parent: string | null;
  title: string;
  body: string;
}) =>
  renderArtifactFile(
    {
      id: input.id,
      type: input.type,
      parent: input.parent,
      workspace: WORKSPACE,
      title: input.title,
      created: CREATED,
    },
    input.body,
  );

/** One commit that creates or edits one artifact at `path`, as the service wrote it. */
export function artifactCommit(
  ctx: ChangeContext,
  verb: 'create' | 'edit',
  input: { id: string; type: ArtifactType; parent: string | null; title: string; body: string; path: string },
): FirstLayoutCommit {
  return {
    ctx,
    message: artifactCommitMessage({
      verb,
      type: input.type,
      id: input.id,
      title: input.title,
      ...(ctx.client ? { client: ctx.client } : {}),
    }),
    files: [{ path: input.path, content: artifactFile(input) }],
  };
}

export function folderCommit(
  ctx: ChangeContext,
  input: { id: string; name: string; parent: string | null; path: string },
): FirstLayoutCommit {
  return {
    ctx,
    message: folderCommitMessage({ id: input.id, name: input.name }),
    files: [
      {
        path: input.path,
        content: renderFolderFile({
          id: input.id,
          type: 'folder',
          name: input.name,
          parent: input.parent,
          workspace: WORKSPACE,
          created: CREATED,
        }),
      },
    ],
  };
}

/** A bare repository with these commits on `main`, one second apart, packed by fast-import. */
export function writeFirstLayoutRepository(gitdir: string, commits: readonly FirstLayoutCommit[]): void {
  mkdirSync(path.dirname(gitdir), { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', gitdir]);
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const stream = commits.map((commit, i) => {
    const when = `${1_700_000_000 + i} +0000`;
    const files = commit.files.map((f) => `M 100644 inline ${f.path}\n${data(f.content)}`).join('');
    return `commit refs/heads/main\nauthor ${commit.ctx.author.name} <${commit.ctx.author.email}> ${when}\ncommitter Specbase <specbase@localhost> ${when}\n${data(commit.message)}${files}`;
  });
  execFileSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], { input: stream.join('') });
}
