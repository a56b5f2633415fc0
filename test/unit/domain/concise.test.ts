import { describe, expect, it } from 'vitest';
import { CONCISE_LENGTH, conciseContent } from '../../../src/domain/index.js';
import { artifactText } from '../../../src/tools/text.js';

const paragraph = 'Shoppers pick a one-hour delivery window up to seven days ahead and keep it while they check out. ';

describe('concise reads', () => {
  it('returns short documents whole', () => {
    expect(conciseContent('# Title\n\nShort body.\n')).toEqual({
      content: '# Title\n\nShort body.\n',
      truncated: false,
    });
  });

  it('cuts long documents on a word boundary near 500 characters and says how to get the rest', () => {
    const body = `# Delivery slots\n\n${paragraph.repeat(20)}`;
    const { content, truncated } = conciseContent(body);
    expect(truncated).toBe(true);
    const [kept, note] = content.split(' …\n');
    expect(body.startsWith(kept!)).toBe(true);
    expect(content.length).toBeLessThanOrEqual(CONCISE_LENGTH);
    expect(content.length).toBeGreaterThan(CONCISE_LENGTH * 0.85);
    expect(body[kept!.length]).toMatch(/\s/);
    expect(note).toBe(`[truncated; mode "full" returns all ${body.length} characters]`);
  });

  it('keeps the whole text block a model reads, labels included, under about 750 characters', () => {
    const { content, truncated } = conciseContent(`# Delivery slots\n\n${paragraph.repeat(50)}`);
    const text = artifactText({
      id: '6e8bfeb5-16ca-4158-b4b9-1b3baf4c08b7',
      type: 'requirement',
      requirementType: 'NON_FUNCTIONAL',
      title: 'Delivery slots',
      parentId: null,
      url: 'http://localhost:3000/o/x/a/y',
      version: 'a'.repeat(40),
      updatedAt: new Date(0).toISOString(),
      updatedBy: 'Demo Owner',
      truncated,
      content,
    });
    expect(text.length).toBeLessThan(750);
  });
});
