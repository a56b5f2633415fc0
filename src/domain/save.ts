import { artifactType, type ArtifactType } from '../artifacts/index.js';
import { ConflictError, InvalidInputError } from '../errors.js';
import { conflictMarkers, mergeWithMarkers, threeWayMerge, unifiedDiff } from '../patch/index.js';
import { writeComputedBody } from './edit.js';
import { bodyOf } from './history.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { EditConflict, SaveInput, SavedView } from './types.js';
import { artifactUrl } from './urls.js';

/** Labels of the two sides of a conflicted passage, as the editor shows them. */
export const CONFLICT_LABELS = { ours: 'your edit', theirs: 'current version' } as const;
const MARKERS = conflictMarkers(CONFLICT_LABELS.ours, CONFLICT_LABELS.theirs);

/** Browsers send textarea text with CRLF line breaks; documents keep LF. */
const normalized = (text: string): string => text.replace(/\r\n?/g, '\n');

function assertResolved(body: string): void {
  const lines = body.split('\n');
  if (lines.includes(MARKERS.start) || lines.includes(MARKERS.end)) {
    throw new InvalidInputError(
      'the text still has conflict markers: keep the lines you want between them and remove the markers',
    );
  }
}

/**
 * Saves a whole new body typed by a person. `baseVersion` is the version their editor opened:
 * if someone changed the artifact since, their change and the other are merged three-way
 * (base = the text at baseVersion, mine = the submitted text, theirs = the current text); a
 * passage both changed is a conflict carrying both texts, and nothing is written.
 */
export async function saveBody(
  deps: DomainDeps,
  scope: Scope,
  type: ArtifactType,
  id: string,
  input: SaveInput,
): Promise<SavedView> {
  const meta = await scope.writable(id, type);
  if (!artifactType(type).editable)
    throw new InvalidInputError(`a ${artifactType(type).name.toLowerCase()} cannot be edited`);
  const mine = normalized(input.body);
  // The store checks the summary (one line, bounded) before it takes the lock.
  const summary = input.summary?.trim();
  assertResolved(mine);
  const base = await bodyOf(deps, scope, meta, input.baseVersion);
  const { result } = await writeComputedBody(
    deps,
    scope,
    meta.id,
    (current) => {
      if (current.version === input.baseVersion) return mine;
      try {
        return threeWayMerge({ ours: mine, base, theirs: current.body });
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        const merged = mergeWithMarkers({ ours: mine, base, theirs: current.body }, CONFLICT_LABELS);
        const conflict: EditConflict = {
          currentVersion: current.version,
          currentBody: current.body,
          mine,
          withMarkers: merged.text,
          theirChange: unifiedDiff(base, current.body, meta.path),
          yourChange: unifiedDiff(base, mine, meta.path),
        };
        throw new ConflictError(
          `someone changed this ${artifactType(type).name.toLowerCase()} while you were editing, and ${error.message}; nothing was written`,
          { ...conflict, conflicts: merged.conflicts },
        );
      }
    },
    { verb: 'edit', ...(summary ? { summary } : {}) },
  );
  const { artifact, added, removed } = result;
  const url = artifactUrl(deps.baseUrl, scope.orgId, artifact.id);
  return { id: artifact.id, version: artifact.version, title: artifact.title, url, added, removed };
}

/** The texts of a conflicting save, when `error` is one. */
export function editConflictOf(error: unknown): EditConflict | undefined {
  if (!(error instanceof ConflictError)) return undefined;
  const data = error.data as Partial<EditConflict>;
  const texts = [data.currentVersion, data.currentBody, data.mine, data.withMarkers, data.theirChange, data.yourChange];
  return texts.every((text) => typeof text === 'string') ? (data as EditConflict) : undefined;
}
