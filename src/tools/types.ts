import type { z } from 'zod';
import type { ChangeRequests } from '../domain/index.js';
import type { Actor, SpecService } from '../domain/types.js';
import type { AppName } from './apps/uris.js';

/** How the app tools show documents and diffs: as the web application does (supplied by the composition root). */
export interface AppRendering {
  /** Sanitized HTML of an artifact's markdown body, its title heading left to the view. */
  markdown(body: string, title: string): string;
  /** A diff with its changed words highlighted. */
  diff(diff: string, caption: string): string;
}

/** What a tool handler works with: the domain, and who acts (resolved per request). */
export interface ToolContext {
  readonly specs: SpecService;
  readonly actor: Actor;
  /** Present where the MCP Apps are served (app tools need it). */
  readonly render?: AppRendering;
  /** Present when the client can ask its user (elicitation). */
  readonly confirm?: Confirm;
  /** Present where the server offers change requests (the review tools need it). */
  readonly changeRequests?: ChangeRequests;
}

/**
 * search, read and list never change anything; create and edit add a commit. `manage` (delete,
 * restore, move, revert, history) and `review` (change requests: open, list, read, submit) are
 * offered only to a connection that asks for them.
 */
export type ToolKind = 'search' | 'read' | 'list' | 'create' | 'edit' | 'manage' | 'review';

/**
 * Kinds a connection gets only by asking (X-Specbase-Tools: +manage, a /manage URL; +review, or
 * working on a change request).
 */
export const OPT_IN_KINDS: readonly ToolKind[] = ['manage', 'review'];

/** A question the user answers before a tool goes on (MCP elicitation), and what it is keyed by. */
export interface Confirmation {
  /** Names the question: a retried 2026-07-28 request answers it by this key. */
  readonly key: string;
  readonly message: string;
}

/**
 * Asks the user through the client; true only when they accepted and ticked the confirmation.
 * Absent when the client did not declare elicitation.
 */
export type Confirm = (question: Confirmation) => Promise<boolean>;

/** Annotations a tool states beyond what its kind implies (the manage tools differ one by one). */
export interface ToolHints {
  readonly readOnly?: true;
  readonly destructive?: true;
  readonly idempotent?: true;
}

export interface ToolOutcome {
  /** Checked against the tool's output schema before it leaves the server. */
  readonly structured: object;
  /** The short text block the model reads. */
  readonly text: string;
  /** For the audit log: the artifact the call was about and the commit it made. */
  readonly artifactId?: string;
  readonly commit?: string;
  /** Artifacts the answer names, sent as resource links beside the text. */
  readonly links?: readonly { readonly id: string; readonly title: string }[];
}

/** A tool as a value: its definition for tools/list and the handler behind it. */
export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly kind: ToolKind;
  readonly description: string;
  readonly hints?: ToolHints;
  readonly input: I;
  readonly output: O;
  /** The MCP App that shows this tool's result to clients that render apps. */
  readonly app?: AppName;
  /**
   * A tool only apps call (`_meta.ui.visibility: ["app"]`): listed to clients that render apps,
   * whose hosts keep it from the model, and offered with the apps named here.
   */
  readonly appOnly?: { readonly serves: readonly AppName[] };
  run(ctx: ToolContext, args: z.output<I>): Promise<ToolOutcome>;
}

/** Erases the per-tool schema types so that tools of different shapes share one table. */
export type AnyToolDef = ToolDef<z.ZodObject, z.ZodObject>;

export const isReadOnly = (kind: ToolKind): boolean => kind === 'search' || kind === 'read' || kind === 'list';
