import { z } from 'zod';
import { artifactType } from '../../artifacts/index.js';
import type { Actor, Crumb, SpecService } from '../../domain/types.js';
import { editOutput } from '../schemas.js';
import { editText } from '../text.js';
import type { AnyToolDef, AppRendering, ToolContext } from '../types.js';
import { changeRequestViewTool, closeChangeRequestTool, mergeChangeRequestTool } from './review-tools.js';

/**
 * The tools only the MCP Apps call (hidden from the model by `_meta.ui.visibility`): what a view
 * shows, and the revert of the change view. They run as every tool does, with the caller's own
 * roles, audit and errors (handlers.ts).
 */

const id = z.string();
const commit = z.string();

function rendering(ctx: ToolContext): AppRendering {
  if (!ctx.render) throw new Error('app tools need the app rendering');
  return ctx.render;
}

async function placeOf(specs: SpecService, actor: Actor, artifactId: string): Promise<readonly Crumb[]> {
  return (await specs.locate(actor, artifactId))?.crumbs ?? [];
}

const crumbOutput = z.object({ label: z.string(), id: z.string().optional() });

const artifactInput = z.object({ id });
const artifactOutput = z.object({
  id: z.string(),
  type: z.string(),
  typeName: z.string(),
  requirementType: z.string().optional(),
  title: z.string(),
  crumbs: z.array(crumbOutput),
  version: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  url: z.string(),
  html: z.string(),
});

export const artifactViewTool: AnyToolDef = {
  name: 'specbase_app_artifact',
  title: 'Artifact view',
  kind: 'read',
  description: 'Artifact view data',
  appOnly: { serves: ['artifact', 'search'] },
  input: artifactInput,
  output: artifactOutput,
  async run(ctx, args) {
    const { specs, actor } = ctx;
    const artifactId = String(args.id);
    const [view, crumbs] = await Promise.all([
      specs.readAny(actor, artifactId, 'full'),
      placeOf(specs, actor, artifactId),
    ]);
    const structured = {
      id: view.id,
      type: view.type,
      typeName: artifactType(view.type).name,
      ...(view.requirementType ? { requirementType: view.requirementType } : {}),
      title: view.title,
      crumbs,
      version: view.version,
      updatedAt: view.updatedAt,
      updatedBy: view.updatedBy,
      url: view.url,
      html: rendering(ctx).markdown(view.content, view.title),
    };
    return { structured, text: `${structured.typeName} "${view.title}", version ${view.version}`, artifactId: view.id };
  },
};

const changeInput = z.object({ id, commit });
const changeOutput = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  crumbs: z.array(crumbOutput),
  commit: z.string(),
  message: z.string(),
  author: z.string(),
  authoredAt: z.string(),
  client: z.string().optional(),
  added: z.number().int(),
  removed: z.number().int(),
  html: z.string(),
});

export const changeViewTool: AnyToolDef = {
  name: 'specbase_app_change',
  title: 'Change view',
  kind: 'read',
  description: 'Change view data',
  appOnly: { serves: ['change'] },
  input: changeInput,
  output: changeOutput,
  async run(ctx, args) {
    const { specs, actor } = ctx;
    const artifactId = String(args.id);
    const [change, view, crumbs] = await Promise.all([
      specs.change(actor, artifactId, String(args.commit)),
      specs.readAny(actor, artifactId, 'concise'),
      placeOf(specs, actor, artifactId),
    ]);
    const structured = {
      id: view.id,
      title: view.title,
      url: view.url,
      crumbs,
      commit: change.commit,
      message: change.message.split('\n', 1)[0] ?? '',
      author: change.author.name,
      authoredAt: change.authoredAt,
      ...(change.client ? { client: change.client } : {}),
      added: change.added,
      removed: change.removed,
      html: rendering(ctx).diff(change.diff, `Change ${change.commit.slice(0, 7)} to ${view.title}`),
    };
    return {
      structured,
      text: `Change ${change.commit.slice(0, 7)} to "${view.title}" by ${change.author.name}`,
      artifactId: view.id,
    };
  },
};

export const revertTool: AnyToolDef = {
  name: 'specbase_app_revert',
  title: 'Revert a change',
  kind: 'edit',
  description: 'Revert one change',
  appOnly: { serves: ['change'] },
  input: changeInput,
  output: editOutput,
  async run({ specs, actor }, args) {
    const view = await specs.revert(actor, String(args.id), String(args.commit));
    return { structured: view, text: editText(view), artifactId: view.id, commit: view.version };
  },
};

const placesInput = z.object({ ids: z.array(id).min(1).max(50) });
const placesOutput = z.object({ places: z.array(z.object({ id: z.string(), crumbs: z.array(crumbOutput) })) });

export const placesTool: AnyToolDef = {
  name: 'specbase_app_places',
  title: 'Places in the tree',
  kind: 'read',
  description: 'Places in the tree',
  appOnly: { serves: ['search'] },
  input: placesInput,
  output: placesOutput,
  async run({ specs, actor }, args) {
    const ids = args.ids as string[];
    const places = await Promise.all(
      ids.map(async (artifactId) => ({ id: artifactId, crumbs: await placeOf(specs, actor, artifactId) })),
    );
    return {
      structured: { places },
      text: places.map((place) => `${place.id}: ${place.crumbs.map((c) => c.label).join(' > ')}`).join('\n'),
    };
  },
};

/** Every app-only tool, listed after the model's tools to clients that render apps. */
export const APP_TOOLS: readonly AnyToolDef[] = Object.freeze([
  artifactViewTool,
  changeViewTool,
  placesTool,
  revertTool,
  changeRequestViewTool,
  mergeChangeRequestTool,
  closeChangeRequestTool,
]);
