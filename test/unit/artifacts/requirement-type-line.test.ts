import { describe, expect, it } from 'vitest';
import { requirementTypeLine, statedRequirementType } from '../../../src/artifacts/index.js';
import { requirementTemplate } from '../../../src/artifacts/templates.js';

describe('the requirement type line', () => {
  it('is what the template writes, and reads back as the type it states', () => {
    expect(requirementTypeLine('CONSTRAINT')).toBe('**Requirement type:** CONSTRAINT (limits)');
    const body = requirementTemplate({ title: 'Limit', requirementType: 'BUSINESS_RULE' });
    expect(statedRequirementType(body)).toEqual({ stated: true, type: 'BUSINESS_RULE' });
  });

  it('reads common spellings, names an unknown word, and says when there is no line', () => {
    expect(statedRequirementType('# T\n\n**Requirement type:** non-functional')).toEqual({
      stated: true,
      type: 'NON_FUNCTIONAL',
    });
    expect(statedRequirementType('# T\n\n**Requirement type:** Constraint(limits)')).toEqual({
      stated: true,
      type: 'CONSTRAINT',
    });
    expect(statedRequirementType('# T\n\n**Requirement type:** MAYBE')).toEqual({ stated: true, unknown: 'MAYBE' });
    expect(statedRequirementType('# T\n\n**Requirement type:**')).toEqual({ stated: true, unknown: '' });
    expect(statedRequirementType('# T\n\nThe requirement type: CONSTRAINT')).toEqual({ stated: false });
  });
});
