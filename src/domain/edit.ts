import { artifactType, REQUIREMENT_TYPES, statedRequirementType, type ArtifactType, type RequirementType } from '../artifacts/index.js';
import { ConflictError, InvalidInputError, PatchError, PayloadTooLargeError } from '../errors.js';
import { applyPatch, unifiedDiff } from '../patch/index.js';
import type { ArtifactRecord, BodyChange, CommitResult } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { EditInput, EditView } from './types.js';
import { artifactUrl } from './urls.js';

/** Concurrent writers to one artifact: re-read and re-apply this many times before giving up. */
const WRITE_ATTEMPTS = 4;

export function editView(deps: DomainDeps, orgId: string, before: string, result: CommitResult): EditView {
  const { artifact } = result;
  return {
    id: artifact.id,
    version: artifact.version,
    title: artifact.title,
    url: artifactUrl(deps.baseUrl, orgId, artifact.id),
    added: result.added,
    removed: result.removed,
    diff: unifiedDiff(before, artifact.body, artifact.path),
  };
}

/**
 * A requirement's type has one source of truth: the `**Requirement type:**` line of its
 * document. A change that states another type changes the stored type (and so the listings
 * and the web badge); a document without the line keeps the stored type.
 */
function requirementTypeOf(current: ArtifactRecord, body: string): { requirementType?: RequirementType } {
  if (current.type !== 'requirement') return {};
  const stated = statedRequirementType(body);
  if (!stated.stated) return {};
  if ('unknown' in stated) {
    throw new InvalidInputError(
      `the **Requirement type:** line names ${JSON.stringify(stated.unknown)}; use one of ${REQUIREMENT_TYPES.join(', ')}`,
    );
  }
  return stated.type === current.requirementType ? {} : { requirementType: stated.type };
}

/**
 * Writes a body computed from the current record, retrying on a lost race so that an edit
 * by someone else in between is never overwritten: `nextBody` runs again on the newer text.
 */
export async function writeComputedBody(
  deps: DomainDeps,
  scope: Scope,
  id: string,
  nextBody: (current: ArtifactRecord) => string,
  change: Omit<BodyChange, 'body' | 'expectedVersion'>,
): Promise<{ before: string; result: CommitResult }> {
  for (let attempt = 1; ; attempt++) {
    const current = await deps.store.read(scope.orgId, id);
    const body = nextBody(current);
    try {
      const result = await deps.store.update(
        scope.orgId,
        id,
        { ...change, body, expectedVersion: current.version, ...requirementTypeOf(current, body) },
        scope.changeContext,
      );
      return { before: current.body, result };
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= WRITE_ATTEMPTS) throw error;
    }
  }
}

export async function editArtifact(
  deps: DomainDeps,
  scope: Scope,
  type: ArtifactType,
  id: string,
  input: EditInput,
): Promise<EditView> {
  const patchBytes = Buffer.byteLength(input.patch, 'utf8');
  if (patchBytes > deps.limits.maxPatchBytes) throw new PayloadTooLargeError('the patch', deps.limits.maxPatchBytes, patchBytes);
  if (!artifactType(type).editable) throw new InvalidInputError(`a ${type} cannot be edited with a patch`);
  const meta = await scope.writable(id, type);
  const { before, result } = await writeComputedBody(
    deps,
    scope,
    meta.id,
    (current) => {
      try {
        return applyPatch(current.body, input.patch).text;
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
  return editView(deps, scope.orgId, before, result);
}
