import type { Services } from '../../src/app/services.js';

/** One artifact as a round trip must keep it: where it sits (by titles and folder names), its type and body. */
export interface Kept {
  readonly place: string;
  readonly type: string;
  readonly body: string;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * Everything under an organization's product and in its folders, each body's links to its own
 * artifacts written as the place of the target, so that two organizations with different ids
 * (and addresses) compare equal when they hold the same titles, tree, bodies and links. The
 * product itself is left out: an import maps a product file onto the product already there.
 */
export async function orgContents(services: Services, orgId: string): Promise<Kept[]> {
  const view = await services.store.view(orgId);
  const places = new Map<string, { place: string; type: string }>();
  const walk = (parentId: string, place: string) => {
    for (const child of view.children(parentId)) {
      if (child.type === 'page') continue;
      const here = `${place}/${child.title}`;
      places.set(child.id, { place: here, type: child.type });
      walk(child.id, here);
    }
  };
  const product = view.children(null, 'product')[0]!;
  walk(product.id, '');
  const folders = (folderId: string | null, place: string) => {
    for (const page of view.children(folderId, 'page'))
      places.set(page.id, { place: `${place}/${page.title}`, type: 'page' });
    for (const folder of view.subfolders(folderId)) folders(folder.id, `${place}/${folder.name}`);
  };
  folders(null, '(pages)');
  const link = new RegExp(`(?:https?://[^\\s/)>]+)?/o/${orgId}/a/(${UUID})`, 'gi');
  const kept: Kept[] = [];
  for (const [id, { place, type }] of places) {
    const { body } = await services.store.read(orgId, id);
    kept.push({
      place,
      type,
      body: body.replace(link, (match, target: string) => `<${places.get(target.toLowerCase())?.place ?? match}>`),
    });
  }
  return kept.sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : a.body < b.body ? -1 : 1));
}
