import { describe, expect, it } from 'vitest';
import type { ArtifactView } from '../../../src/domain/types.js';
import { artifactText, createdText, editText, foldersText, listText, withArticle } from '../../../src/tools/text.js';

const view: ArtifactView = {
  id: '6e8bfeb5-16ca-4158-b4b9-1b3baf4c08b7',
  type: 'core_entity',
  title: 'Order',
  parentId: null,
  url: 'http://localhost:3000/o/x/a/6e8bfeb5-16ca-4158-b4b9-1b3baf4c08b7',
  version: 'b'.repeat(40),
  updatedAt: new Date(0).toISOString(),
  updatedBy: 'Demo Owner',
  truncated: false,
  content: '# Order\n\nWhat a shopper buys.\n',
};

describe('the text blocks a model reads', () => {
  it('keep labels outside explicit document tags, with version and url', () => {
    const text = artifactText(view);
    const [labels, document] = text.split('<document>\n');
    expect(document).toBe(`${view.content}</document>`);
    expect(labels).toContain(`version ${view.version}`);
    expect(labels).toContain(view.url);
    expect(labels).toContain('Core Entity');
    expect(text.split('\n')[0]).not.toMatch(/^(#|\[)/);
  });

  it('name a requirement type beside the artifact type and close a document without a final newline', () => {
    const text = artifactText({ ...view, type: 'requirement', requirementType: 'CONSTRAINT', content: '# Limit' });
    expect(text.split('\n')[0]).toMatch(/^Requirement \(CONSTRAINT\) /);
    expect(text.endsWith('<document>\n# Limit\n</document>')).toBe(true);
  });

  it('say what was created in words, and carry version and url after create and edit', () => {
    const created = createdText({ ...view, type: 'acceptance_criterion', title: 'Pays by card' });
    expect(created.split('\n')[0]).toBe('Created acceptance criterion "Pays by card".');
    expect(created).toContain(view.url);
    const edited = editText({
      id: view.id,
      version: view.version,
      title: 'Order',
      url: view.url,
      added: 1,
      removed: 1,
      diff: '@@\n-a\n+b\n',
    });
    expect(edited.split('\n')[0]).toBe(
      `Edited "Order" (${view.id}): +1 -1 lines, version ${view.version}, ${view.url}`,
    );
  });

  it('count in the right number', () => {
    const item = { id: view.id, type: 'feature' as const, title: 'Checkout', url: view.url, updatedAt: view.updatedAt };
    expect(listText([item], 'feature', 'features').split('\n')[0]).toBe('1 feature:');
    expect(listText([item, item], 'feature', 'features').split('\n')[0]).toBe('2 features:');
    expect(listText([], 'feature', 'features')).toBe('No features.');
    expect(foldersText([{ id: 'f', name: 'Notes', parentFolderId: null, pageCount: 1 }])).toBe('- Notes (f), 1 page');
    expect(foldersText([{ id: 'f', name: 'Notes', parentFolderId: null, pageCount: 2 }])).toBe('- Notes (f), 2 pages');
  });

  it('choose the article by sound', () => {
    expect(withArticle('User Type')).toBe('a User Type');
    expect(withArticle('Acceptance Criterion')).toBe('an Acceptance Criterion');
    expect(withArticle('Feature')).toBe('a Feature');
    expect(withArticle('Order')).toBe('an Order');
  });
});
