import { REQUIREMENT_TYPES, REQUIREMENT_TYPE_MEANING, type RequirementType } from './types.js';

const LINE = /^[ \t]*\*\*Requirement type:\*\*[ \t]*([^\s(]*)/m;

/** The line every requirement document opens with, under its heading. */
export const requirementTypeLine = (type: RequirementType): string =>
  `**Requirement type:** ${type} (${REQUIREMENT_TYPE_MEANING[type]})`;

/** What a document's `**Requirement type:**` line says: no line, a type, or an unknown word. */
export type StatedRequirementType =
  | { readonly stated: false }
  | { readonly stated: true; readonly type: RequirementType }
  | { readonly stated: true; readonly unknown: string };

/**
 * The requirement type a document states in its first `**Requirement type:**` line. That line
 * is where people and models write the type, so it decides the stored type. "non-functional"
 * and "Non functional" read as NON_FUNCTIONAL.
 */
export function statedRequirementType(body: string): StatedRequirementType {
  const match = LINE.exec(body);
  if (!match) return { stated: false };
  const word = match[1] ?? '';
  const normalized = word.toUpperCase().replace(/-/g, '_');
  return (REQUIREMENT_TYPES as readonly string[]).includes(normalized)
    ? { stated: true, type: normalized as RequirementType }
    : { stated: true, unknown: word };
}
