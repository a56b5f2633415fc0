import { describe, expect, it } from 'vitest';
import { LinkIndex } from '../../../src/store/catalog/index.js';
import { wikiKey, wikiTitleOf } from '../../../src/artifacts/index.js';
import { idsInOrg, linkedIds, linkKeysInOrg, linkTargets } from '../../../src/store/layout/index.js';

const ORG = '11111111-1111-4111-8111-111111111111';
const A = '22222222-2222-4222-8222-222222222222';
const B = '33333333-3333-4333-8333-333333333333';
const C = '44444444-4444-4444-8444-444444444444';

describe('linkedIds', () => {
  it('finds markdown links, autolinks, reference definitions and bare addresses to artifacts of the organization', () => {
    const body = [
      `See [the feature](https://specs.example.com/o/${ORG}/a/${A}).`,
      `Also <http://localhost:3000/o/${ORG}/a/${B}#history>, and [again](/o/${ORG}/a/${A}/history).`,
      `[ref]: /o/${ORG}/a/${C}`,
      `Plain https://specs.example.com/o/${ORG}/a/${B.toUpperCase()}.`,
    ].join('\n');
    expect(linkedIds(body, ORG)).toEqual([A, B, C]);
  });

  it('leaves out other organizations, ids that are not links, and partial ids', () => {
    const other = '99999999-1111-4111-8111-111111111111';
    expect(linkedIds(`[x](/o/${other}/a/${A}) text/o/${ORG}/a/${A} [y](/o/${ORG}/a/${A.slice(0, 30)})`, ORG)).toEqual(
      [],
    );
  });
});

describe('LinkIndex', () => {
  it('answers both ways and follows a body that changes its links', () => {
    const index = new LinkIndex();
    index.set(A, [B, C]);
    index.set(B, [C]);
    expect([...index.linksTo(C)].sort()).toEqual([A, B]);
    index.set(A, [B]);
    expect(index.linksTo(C)).toEqual([B]);
    expect(index.linksFrom(A)).toEqual([B]);
    index.set(B, []);
    expect(index.linksTo(C)).toEqual([]);
    expect(index.linksFrom(B)).toEqual([]);
  });
});

describe('linkTargets', () => {
  it("keeps every organization's artifact addresses, once each, and idsInOrg picks one organization's", () => {
    const other = '99999999-1111-4111-8111-111111111111';
    const body = `[a](/o/${ORG}/a/${A}) [b](https://x/o/${other}/a/${B}) <http://y/o/${ORG.toUpperCase()}/a/${A}> [c](/o/${ORG}/a/${C})`;
    const targets = linkTargets(body);
    expect(targets).toEqual([`${ORG}/${A}`, `${other}/${B}`, `${ORG}/${C}`]);
    expect(idsInOrg(targets, ORG)).toEqual([A, C]);
    expect(idsInOrg(targets, other)).toEqual([B]);
    expect(linkedIds(body, ORG)).toEqual(idsInOrg(targets, ORG));
  });
});

describe('links an assistant writes', () => {
  it('counts a specbase:// URI as a link by id, wherever a markdown link target may stand', () => {
    const body = [
      `See [the feature](specbase://o/${ORG}/artifact/${A}) and <specbase://o/${ORG}/artifact/${B}>.`,
      `[ref]: specbase://o/${ORG}/artifact/${C.toUpperCase()}`,
      `Not a link: specbase://o/${ORG}/artifact/${A.replace('2222-4', '5555-4')} in prose.`,
    ].join('\n');
    expect(linkedIds(body, ORG)).toEqual([A, B, C]);
  });

  it('keeps [[Title]] and [[Title|label]] as wiki keys, in the order written, whatever their case and spacing', () => {
    const body = `[[Checkout  Flow|the flow]] then [b](/o/${ORG}/a/${B}), [[checkout flow]], [[ Returns ]] and [[]] or [[a\nb]].`;
    expect(linkTargets(body)).toEqual([wikiKey('Checkout Flow'), `${ORG}/${B}`, wikiKey('returns')]);
    expect(wikiKey('Checkout  Flow')).toBe('wiki:checkout flow');
    expect(wikiTitleOf(wikiKey('Returns'))).toBe('returns');
    expect(wikiTitleOf(`${ORG}/${B}`)).toBeUndefined();
    expect(linkKeysInOrg(linkTargets(body), ORG)).toEqual([wikiKey('Checkout Flow'), B, wikiKey('returns')]);
  });

  it('indexes titles, so that a wiki link finds its artifact and follows a rename', () => {
    const index = new LinkIndex();
    index.set(A, [wikiKey('Returns')], wikiKey('Checkout'));
    index.set(B, [], wikiKey('Returns'));
    expect(index.titled(wikiKey('returns'))).toEqual([B]);
    expect(index.linksTo(wikiKey('returns'))).toEqual([A]);
    index.set(B, [], wikiKey('Refunds'));
    expect(index.titled(wikiKey('returns'))).toEqual([]);
    expect(index.titled(wikiKey('refunds'))).toEqual([B]);
    index.set(B, []);
    expect(index.titled(wikiKey('refunds'))).toEqual([]);
  });
});
