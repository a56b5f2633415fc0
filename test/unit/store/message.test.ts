import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/errors.js';
import { artifactCommitMessage, checkedSummary, parseCommitMessage } from '../../../src/store/layout/index.js';

const ID = '3f2c9a1e-5b7d-4c3e-9f10-2a4b6c8d0e12';

describe('change summaries in commit messages', () => {
  it('writes the summary as its own paragraph between the subject and the trailers', () => {
    const message = artifactCommitMessage({
      verb: 'edit',
      type: 'requirement',
      id: ID,
      title: 'Search latency',
      client: 'web',
      summary: '  Fix a typo  ',
    });
    expect(message).toBe(
      `Edit requirement: Search latency\n\nFix a typo\n\nArtifact-Id: ${ID}\nArtifact-Type: requirement\nClient: web\n`,
    );
    expect(parseCommitMessage(message).trailers.get('Client')).toBe('web');
  });

  it('leaves an empty summary out', () => {
    expect(artifactCommitMessage({ verb: 'edit', type: 'page', id: ID, title: 'Notes', summary: '   ' })).toBe(
      `Edit page: Notes\n\nArtifact-Id: ${ID}\nArtifact-Type: page\n`,
    );
  });

  it('refuses a summary that would forge trailers or is too long', () => {
    expect(() => checkedSummary('Fix\nClient: someone-else')).toThrow(InvalidInputError);
    expect(() => checkedSummary('x'.repeat(201))).toThrow(/limit is 200/);
    expect(checkedSummary('x'.repeat(200))).toHaveLength(200);
  });
});
