import type { OrgStanding } from '../context.js';

interface MenuEntry {
  /** The page's section: the entry is marked current on the pages of that section. */
  readonly section: string;
  readonly label: string;
  /** After `/o/{orgId}`. */
  readonly path: string;
  /** The least standing in the organization that may use the page. */
  readonly shownTo: OrgStanding;
}

/** The one menu of an organization's pages, in the order shown; a page joins the menu by a row here and nowhere else. */
export const MENU = [
  { section: 'home', label: 'Product', path: '', shownTo: 'viewer' },
  { section: 'activity', label: 'Activity', path: '/activity', shownTo: 'viewer' },
  { section: 'change-requests', label: 'Reviews', path: '/cr', shownTo: 'viewer' },
  { section: 'deleted', label: 'Deleted', path: '/deleted', shownTo: 'viewer' },
  { section: 'import', label: 'Import', path: '/import', shownTo: 'editor' },
  { section: 'connect', label: 'Connect', path: '/connect', shownTo: 'viewer' },
  { section: 'members', label: 'Members', path: '/members', shownTo: 'admin' },
  { section: 'audit', label: 'Audit', path: '/audit', shownTo: 'admin' },
  { section: 'webhooks', label: 'Webhooks', path: '/webhooks', shownTo: 'admin' },
] as const satisfies readonly MenuEntry[];

/** Sections of pages: a menu entry's, or the search page's (which the header's search field leads to). */
export type Section = (typeof MENU)[number]['section'] | 'search';

const RANK: Readonly<Record<OrgStanding, number>> = { viewer: 1, editor: 2, admin: 3 };

/** The entries a member of this standing may use. */
export const menuFor = (standing: OrgStanding): readonly MenuEntry[] =>
  MENU.filter((entry) => RANK[standing] >= RANK[entry.shownTo]);
