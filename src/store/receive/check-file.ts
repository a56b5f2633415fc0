import { artifactType, REQUIREMENT_TYPES } from '../../artifacts/index.js';
import { InvalidInputError, PermissionDeniedError } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { checkDocumentText } from '../../patch/index.js';
import {
  artifactPath,
  basenameOf,
  checkedTitle,
  dirnameOf,
  folderPath,
  headingTitle,
  PRODUCT_PATH,
  shardDir,
  shortId,
  type RepositoryFile,
} from '../layout/index.js';
import { checkDocumentSize, type WriteEnv } from '../org/index.js';
import type { PushRules } from '../types.js';
import { requirementTypeOfBody } from '../write/index.js';
import type { PushedCatalog, PushedEntry } from './pushed-catalog.js';

const FOLDERS_DIR = 'folders';
const HEADING_TITLE = 'title (the first "# " heading)';

export interface FileCheck {
  readonly catalog: PushedCatalog;
  readonly rules: PushRules;
  readonly env: WriteEnv;
}

/** The workspace is one of the organization's, and the pusher may change what is in it. */
export function checkWritable(check: FileCheck, workspaceId: string): void {
  if (!check.rules.workspaceIds.has(workspaceId))
    throw new InvalidInputError(`workspace ${workspaceId} is not a workspace of this organization`);
  if (!check.rules.mayWrite(workspaceId)) {
    throw new PermissionDeniedError(
      `permission denied: your role in workspace ${workspaceId} does not allow changes there`,
    );
  }
}

/**
 * Judges one added or changed file (`previous`: the artifact or folder whose file it was) by the
 * rules every write keeps: frontmatter, path layout, the id and type never changing, title and
 * heading agreeing, the size limit and the one character rule. Where it sits (its parent) is
 * judged once the whole commit is laid over the catalog (see checkPlacement). Returns the entry
 * the file makes; throws the broken rule.
 */
export function checkChangedFile(
  check: FileCheck,
  path: string,
  file: RepositoryFile,
  previous: { readonly entry: PushedEntry; readonly body: string } | undefined,
): PushedEntry {
  const fm = file.frontmatter;
  const type = file.kind === 'folder' ? 'folder' : file.frontmatter.type;
  if (!isUuid(fm.id)) throw new InvalidInputError(`the id ${JSON.stringify(fm.id)} is not a UUID`);
  if (previous) {
    if (previous.entry.id !== fm.id)
      throw new InvalidInputError(`the id of an existing file never changes: it is ${previous.entry.id}`);
    if (previous.entry.type !== type)
      throw new InvalidInputError(`the type of an existing file never changes: it is ${previous.entry.type}`);
    checkWritable(check, previous.entry.workspaceId);
  } else {
    const taken = check.catalog.get(fm.id);
    if (taken) {
      throw new InvalidInputError(
        `the id ${fm.id} is already used by ${taken.path} (a file's path never changes: to move an artifact, change its parent)`,
      );
    }
    const formerPath = check.catalog.removedFrom(fm.id);
    if (formerPath !== undefined && formerPath !== path) {
      throw new InvalidInputError(
        `the file of ${fm.id} moved from ${formerPath}: a file's path never changes (to move an artifact, change its parent)`,
      );
    }
    checkNewPath(path, type, fm.id, file);
  }
  checkWritable(check, fm.workspace);
  if (file.kind === 'folder') {
    checkedTitle(file.frontmatter.name, 'folder name');
  } else {
    checkArtifactContent(check, file, previous?.body ?? '');
  }
  return { id: fm.id, type, parentId: fm.parent, workspaceId: fm.workspace, path };
}

/** A new file goes where the store would have put it: its type's directory, the shard of its id, `<slug>-<id8>.md`. */
function checkNewPath(path: string, type: PushedEntry['type'], id: string, file: RepositoryFile): void {
  const expected =
    file.kind === 'folder'
      ? folderPath(id, file.frontmatter.name)
      : artifactPath(artifactType(file.frontmatter.type), id, file.frontmatter.title);
  if (type === 'product') {
    if (path !== PRODUCT_PATH) throw new InvalidInputError(`the product's file is ${PRODUCT_PATH}`);
    return;
  }
  const dir = shardDir(type === 'folder' ? FOLDERS_DIR : artifactType(type).pathSegment, id);
  const name = basenameOf(path);
  if (
    dirnameOf(path) !== dir ||
    !/^[a-z0-9-]*$/.test(name.slice(0, -`-${shortId(id)}.md`.length)) ||
    !name.endsWith(`-${shortId(id)}.md`)
  ) {
    throw new InvalidInputError(
      `a new ${type.replace(/_/g, ' ')} file goes in ${dir}/ and is named <slug>-${shortId(id)}.md, for example ${expected}`,
    );
  }
}

function checkArtifactContent(
  check: FileCheck,
  file: Extract<RepositoryFile, { kind: 'artifact' }>,
  before: string,
): void {
  const { frontmatter: fm, body } = file;
  checkDocumentSize(body, check.env);
  checkDocumentText(before, body);
  const title = checkedTitle(fm.title);
  const heading = headingTitle(body);
  if (heading !== undefined && checkedTitle(heading, HEADING_TITLE) !== title) {
    throw new InvalidInputError(
      `the frontmatter title ${JSON.stringify(title)} must be the document's first "# " heading, ${JSON.stringify(heading.trim())}`,
    );
  }
  if (fm.type === 'requirement') {
    const stated = requirementTypeOfBody(body, fm.requirementType);
    if (stated === undefined) {
      throw new InvalidInputError(
        `a requirement's frontmatter names its requirementType: one of ${REQUIREMENT_TYPES.join(', ')}`,
      );
    }
    if (stated !== fm.requirementType) {
      throw new InvalidInputError(
        `the frontmatter requirementType ${JSON.stringify(fm.requirementType ?? null)} must match the document's **Requirement type:** line (${stated})`,
      );
    }
  }
}
