import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, TreeNode } from '../../../src/domain/index.js';
import { startHarness, type Harness } from '../../support/harness.js';

let h: Harness;
let owner: Actor;

beforeAll(async () => {
  h = await startHarness();
  const principal = (await h.services.control.members.principal(h.orgId, h.users.owner.user.id))!;
  owner = { principal, client: 'tree-test' };
});

afterAll(async () => {
  await h?.close();
});

const nodes = (node: TreeNode): TreeNode[] => [node, ...node.children.flatMap(nodes)];
const depthOf = (node: TreeNode): number => 1 + Math.max(0, ...node.children.map(depthOf));

describe('the product tree opened by levels (the home page)', () => {
  it('opens a small organization whole, and a large one level by level up to the nodes it may show', async () => {
    const whole = await h.services.specs.tree(owner, { upTo: 1_000 });
    const all = nodes(whole.product);
    expect(all.length).toBeGreaterThan(20);
    expect(all.some((node) => node.closed)).toBe(false);
    expect(depthOf(whole.product)).toBeGreaterThanOrEqual(4);

    // Just enough for the product and two levels below it: the third level stays closed.
    const levels = [whole.product.children, whole.product.children.flatMap((child) => child.children)];
    const upTo = 1 + levels[0]!.length + levels[1]!.length;
    const cut = await h.services.specs.tree(owner, { upTo });
    const shown = nodes(cut.product);
    expect(shown).toHaveLength(upTo);
    expect(depthOf(cut.product)).toBe(3);
    const closed = shown.filter((node) => node.closed).map((node) => node.id);
    const withChildrenBelow = levels[1]!.filter((node) => node.children.length > 0).map((node) => node.id);
    expect(closed.sort()).toEqual(withChildrenBelow.sort());

    // One node short, the second level does not fit: only the product's children are shown.
    const shorter = await h.services.specs.tree(owner, { upTo: upTo - 1 });
    expect(nodes(shorter.product)).toHaveLength(1 + levels[0]!.length);
    expect(shorter.pages).toEqual(whole.pages);
    // The product's own children are the home page's lists: shown whatever the limit.
    expect(await h.services.specs.tree(owner, { upTo: 1 })).toEqual(shorter);
  });
});
