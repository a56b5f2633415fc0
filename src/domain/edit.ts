import { artifactType, type ArtifactType } from '../artifacts/index.js';
import { ConflictError, InvalidInputError, PatchError, PayloadTooLargeError } from '../errors.js';
import { applyPatchOffLoop, unifiedDiffOffLoop } from '../patch/index.js';
import type { ArtifactRecord, BodyChange, CommitResult } from '../store/types.js';
import { announceChange } from './announce.js';
import { linksOf } from './links.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { EditInput, EditView } from './types.js';
import { artifactUrl } from './urls.js';

export async function editView(
  deps: DomainDeps,
  orgId: string,
  before: string,
  result: CommitResult,
): Promise<EditView> {
  const { artifact } = result;
  return {
    id: artifact.id,
    version: artifact.version,
    title: artifact.title,
    url: artifactUrl(deps.baseUrl, orgId, artifact.id),
    added: result.added,
    removed: result.removed,
    diff: await unifiedDiffOffLoop(before, artifact.body, artifact.path),
  };
}

/**
 * Writes a body computed from the artifact as it is when the organization's write section is
 * entered: concurrent writers are applied one after the other, each to the text the previous one
 * left, so an edit by someone else in between is neither refused nor overwritten.
 */
export async function writeComputedBody(
  deps: DomainDeps,
  scope: Scope,
  id: string,
  nextBody: (current: ArtifactRecord) => string | Promise<string>,
  change: Omit<BodyChange, 'body' | 'expectedVersion'>,
): Promise<{ before: string; result: CommitResult }> {
  let before = '';
  const body = (current: ArtifactRecord): string | Promise<string> => {
    before = current.body;
    return nextBody(current);
  };
  const result = await deps.store.update(scope.orgId, id, { ...change, body }, scope.changeContext);
  await announceChange(deps, scope, change.verb, result);
  return { before, result };
}

export async function editArtifact(
  deps: DomainDeps,
  scope: Scope,
  type: ArtifactType,
  id: string,
  input: EditInput,
): Promise<EditView> {
  const patchBytes = Buffer.byteLength(input.patch, 'utf8');
  if (patchBytes > deps.limits.maxPatchBytes)
    throw new PayloadTooLargeError('the patch', deps.limits.maxPatchBytes, patchBytes);
  if (!artifactType(type).editable) throw new InvalidInputError(`a ${type} cannot be edited with a patch`);
  const meta = await scope.writable(id, type);
  const { before, result } = await writeComputedBody(
    deps,
    scope,
    meta.id,
    async (current) => {
      try {
        return await applyPatchOffLoop(current.body, input.patch);
      } catch (error) {
        if (error instanceof PatchError && input.baseVersion && input.baseVersion !== current.version) {
          throw new ConflictError(
            `the ${artifactType(type).name.toLowerCase()} changed since version ${input.baseVersion} and the patch no longer applies to the current text (version ${current.version}); read it again with mode "full" and write the patch against the current text`,
            { currentVersion: current.version },
          );
        }
        throw error;
      }
    },
    { verb: 'edit' },
  );
  // The links of the text as written, so that an assistant can check the ones it just made.
  const [view, { links, unresolvedLinks }] = await Promise.all([
    editView(deps, scope.orgId, before, result),
    linksOf(deps, scope, meta.id),
  ]);
  return { ...view, links, unresolvedLinks };
}
