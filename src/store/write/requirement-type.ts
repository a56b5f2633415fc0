import { REQUIREMENT_TYPES, statedRequirementType, type RequirementType } from '../../artifacts/index.js';
import { InvalidInputError } from '../../errors.js';

/**
 * A requirement's type has one source of truth: the `**Requirement type:**` line of its
 * document. A body that states a type sets it (for a create as for an edit); a body without
 * the line keeps `otherwise` (the stored type, or the one a create was asked for). A line
 * naming no known type is refused.
 */
export function requirementTypeOfBody(
  body: string,
  otherwise: RequirementType | undefined,
): RequirementType | undefined {
  const stated = statedRequirementType(body);
  if (stated.stated && 'unknown' in stated) {
    throw new InvalidInputError(
      `the **Requirement type:** line names ${JSON.stringify(stated.unknown)}; use one of ${REQUIREMENT_TYPES.join(', ')}`,
    );
  }
  return stated.stated ? stated.type : otherwise;
}
