import type { z } from 'zod';
import type { Actor, SpecService } from '../domain/types.js';

/** What a tool handler works with: the domain, and who acts (resolved per request). */
export interface ToolContext {
  readonly specs: SpecService;
  readonly actor: Actor;
}

/** search, read and list never change anything; create and edit add a commit. */
export type ToolKind = 'search' | 'read' | 'list' | 'create' | 'edit';

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
  readonly input: I;
  readonly output: O;
  run(ctx: ToolContext, args: z.output<I>): Promise<ToolOutcome>;
}

/** Erases the per-tool schema types so that tools of different shapes share one table. */
export type AnyToolDef = ToolDef<z.ZodObject, z.ZodObject>;

export const isReadOnly = (kind: ToolKind): boolean => kind === 'search' || kind === 'read' || kind === 'list';
