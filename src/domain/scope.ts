import { canRead, canWrite, readableWorkspaces } from '../access/index.js';
import type { ArtifactType } from '../artifacts/index.js';
import { DeletedArtifactError, NotFoundError, PermissionDeniedError, WrongTypeError } from '../errors.js';
import { isUuid } from '../ids.js';
import type { ArtifactMeta, ChangeContext, FolderRecord } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Actor } from './types.js';

/**
 * Resolves what an actor may see. Every "not there", "not yours" and "malformed" answer is
 * the same NotFoundError so that an artifact's existence never leaks.
 */
export class Scope {
  constructor(
    private readonly deps: DomainDeps,
    readonly actor: Actor,
  ) {}

  get orgId(): string {
    return this.actor.principal.orgId;
  }

  get changeContext(): ChangeContext {
    const { name, email } = this.actor.principal;
    return { author: { name, email }, ...(this.actor.client ? { client: this.actor.client } : {}) };
  }

  async readableWorkspaceIds(): Promise<Set<string>> {
    const all = await this.deps.control.workspaces.list(this.orgId);
    return readableWorkspaces(
      this.actor.principal,
      all.map((w) => w.id),
    );
  }

  async defaultWorkspaceId(): Promise<string> {
    return (await this.deps.control.workspaces.defaultOf(this.orgId)).id;
  }

  canRead(workspaceId: string): boolean {
    return canRead(this.actor.principal, workspaceId);
  }

  /** The artifact's metadata if it exists, is of `type` (when given) and is readable. */
  async readable(id: string, type?: ArtifactType): Promise<ArtifactMeta> {
    if (!isUuid(id)) throw new NotFoundError();
    const meta = await this.deps.store.meta(this.orgId, id);
    if (!meta) throw await this.missing(id);
    if (!this.canRead(meta.workspaceId)) throw new NotFoundError();
    if (type && meta.type !== type) throw new WrongTypeError(meta.id, meta.type, type);
    return meta;
  }

  /** Why an id names nothing: deleted, when the actor may read where it was; else plain "not found". */
  private async missing(id: string): Promise<NotFoundError> {
    const lower = id.toLowerCase();
    const deleted = (await this.deps.store.deleted(this.orgId)).find((d) => d.id === lower);
    return deleted && this.canRead(deleted.workspaceId) ? new DeletedArtifactError(deleted) : new NotFoundError();
  }

  async writable(id: string, type?: ArtifactType): Promise<ArtifactMeta> {
    const meta = await this.readable(id, type);
    this.assertWrite(meta.workspaceId);
    return meta;
  }

  canWrite(workspaceId: string): boolean {
    return canWrite(this.actor.principal, workspaceId);
  }

  assertWrite(workspaceId: string): void {
    if (!canWrite(this.actor.principal, workspaceId)) {
      throw new PermissionDeniedError('permission denied: your role in this workspace does not allow changes');
    }
  }

  async readableFolder(id: string): Promise<FolderRecord> {
    if (!isUuid(id)) throw new NotFoundError('folder');
    const folder = (await this.deps.store.view(this.orgId)).folder(id.toLowerCase());
    if (!folder || !this.canRead(folder.workspaceId)) throw new NotFoundError('folder');
    return folder;
  }

  async product(): Promise<ArtifactMeta> {
    const product = (await this.deps.store.children(this.orgId, null, 'product'))[0];
    if (!product || !this.canRead(product.workspaceId)) throw new NotFoundError();
    return product;
  }
}
