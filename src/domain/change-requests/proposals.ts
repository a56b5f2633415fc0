import { artifactType, type ArtifactType } from '../../artifacts/index.js';
import type { ChangeRequest } from '../../control/types.js';
import { isUuid } from '../../ids.js';
import type { ArtifactStore } from '../ports.js';
import type { Actor, CreateInput, SpecService } from '../types.js';
import type { ChangeRequests } from './change-requests.js';

/**
 * What a connection asked for: a change request by number, `new` (the actor's draft through
 * this client, opened by the first write), or nothing (then a workspace's rule "changes from
 * assistants need review" may still make a write a proposal).
 */
export type ProposalTarget = number | 'new' | undefined;

/** The verbs that write, and where each finds the artifact it writes (its arguments after the actor). */
const WRITES = {
  create: (args) => ({ type: args[0] as ArtifactType, input: args[1] as CreateInput }),
  createFolder: () => ({}),
  edit: (args) => ({ id: args[1] as string }),
  save: (args) => ({ id: args[1] as string }),
  revert: (args) => ({ id: args[0] as string }),
  restore: (args) => ({ id: args[0] as string }),
  delete: (args) => ({ id: args[0] as string }),
  restoreDeleted: (args) => ({ id: args[0] as string }),
  move: (args) => ({ id: args[0] as string }),
  moveFolder: () => ({}),
  renameFolder: () => ({}),
  deleteFolder: () => ({}),
  importFiles: () => ({}),
} satisfies Partial<Record<keyof SpecService, (args: readonly unknown[]) => WriteTarget>>;

interface WriteTarget {
  readonly id?: string;
  readonly type?: ArtifactType;
  readonly input?: CreateInput;
}

const VERB_WORD: Partial<Record<keyof typeof WRITES, string>> = {
  edit: 'Edit',
  save: 'Edit',
  revert: 'Revert a change to',
  restore: 'Restore an earlier version of',
  delete: 'Delete',
  restoreDeleted: 'Restore',
  move: 'Move',
};

/** The artifact a write's result names: its `id`, or the `artifact` a delete or move names. */
function writtenId(result: unknown): string | undefined {
  const view = result as { id?: unknown; artifact?: { id?: unknown } } | undefined;
  const id = view?.id ?? view?.artifact?.id;
  return typeof id === 'string' ? id : undefined;
}

/** Routes a connection's calls between `main` and a change request; see ProposalTarget. */
export class Proposals {
  constructor(
    private readonly main: SpecService,
    private readonly store: ArtifactStore,
    private readonly changeRequests: ChangeRequests,
    private readonly specsOn: (number: number) => SpecService,
  ) {}

  /**
   * The SpecService one call runs against: reads see the change request when there is one,
   * writes land on it (opening the draft when needed), and `proposed` hears which one took a write.
   */
  for(target: ProposalTarget, proposed: (changeRequest: ChangeRequest) => void): SpecService {
    const service: Record<string, unknown> = {};
    for (const [name, method] of Object.entries(this.main) as [keyof SpecService, (...a: unknown[]) => unknown][]) {
      const where = (WRITES as Partial<Record<keyof SpecService, (args: readonly unknown[]) => WriteTarget>>)[name];
      service[name] = where
        ? async (actor: Actor, ...args: unknown[]) => {
            const changeRequest = await this.writeTarget(actor, target, name as keyof typeof WRITES, where(args));
            if (!changeRequest) return method.call(this.main, actor, ...args);
            const result = await (this.specsOn(changeRequest.number)[name] as (...a: unknown[]) => unknown)(
              actor,
              ...args,
            );
            await this.changeRequests.updated(actor, changeRequest.number, writtenId(result));
            proposed(changeRequest);
            return result;
          }
        : async (actor: Actor, ...args: unknown[]) => {
            const changeRequest = await this.readTarget(actor, target);
            const specs = changeRequest ? this.specsOn(changeRequest.number) : this.main;
            return (specs[name] as (...a: unknown[]) => unknown)(actor, ...args);
          };
    }
    return service as unknown as SpecService;
  }

  private async readTarget(actor: Actor, target: ProposalTarget): Promise<ChangeRequest | undefined> {
    if (typeof target === 'number') return this.changeRequests.get(actor, target);
    if (target === 'new' || (await this.reviewed(actor)).size > 0) return this.changeRequests.draftOf(actor);
    return undefined;
  }

  private async writeTarget(
    actor: Actor,
    target: ProposalTarget,
    verb: keyof typeof WRITES,
    written: WriteTarget,
  ): Promise<ChangeRequest | undefined> {
    if (typeof target === 'number') return this.changeRequests.writable(actor, target);
    if (target === undefined && !(await this.needsReview(actor, written))) return undefined;
    const draft = await this.changeRequests.draftOf(actor);
    if (draft) return draft;
    const title = await this.titleOf(actor, verb, written);
    const opened = await this.changeRequests.open(actor, { title });
    return this.changeRequests.get(actor, opened.number);
  }

  /** The workspaces whose rule makes assistants' writes proposals. */
  private async reviewed(actor: Actor): Promise<ReadonlySet<string>> {
    const rules = await this.changeRequests.reviewRules(actor);
    return new Set([...rules].flatMap(([id, rule]) => (rule.assistantChangesNeedReview ? [id] : [])));
  }

  private async needsReview(actor: Actor, written: WriteTarget): Promise<boolean> {
    const reviewed = await this.reviewed(actor);
    if (reviewed.size === 0) return false;
    const workspaceId = await this.workspaceOf(actor, written);
    return workspaceId !== undefined && reviewed.has(workspaceId);
  }

  private async workspaceOf(actor: Actor, written: WriteTarget): Promise<string | undefined> {
    const { orgId } = actor.principal;
    const id = written.id ?? written.input?.parentId;
    if (id && isUuid(id)) return (await this.store.meta(orgId, id))?.workspaceId;
    if (written.type === 'page' || (written.type && !written.input?.parentId)) {
      const product = (await this.store.children(orgId, null, 'product'))[0];
      return product?.workspaceId;
    }
    return undefined;
  }

  private async titleOf(actor: Actor, verb: keyof typeof WRITES, written: WriteTarget): Promise<string> {
    if (verb === 'create' && written.type) {
      const name = artifactType(written.type).name.toLowerCase();
      return written.input?.title ? `New ${name}: ${written.input.title}` : `New ${name}`;
    }
    const meta =
      written.id && isUuid(written.id) ? await this.store.meta(actor.principal.orgId, written.id) : undefined;
    const word = VERB_WORD[verb];
    return word && meta ? `${word} ${meta.title}` : 'Proposed changes';
  }
}
