import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** The rule sets the application is held to: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export interface Finding {
  readonly rule: string;
  readonly impact: string | null;
  readonly targets: readonly string[];
  readonly summary: string;
}

/** axe-core's violations on the page as it stands, one finding per rule with the nodes it failed on. */
export async function axeFindings(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} }, resultTypes: ['violations'] })`,
  )) as {
    violations: { id: string; impact: string | null; nodes: { target: string[]; failureSummary?: string }[] }[];
  };
  return violations.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    targets: v.nodes.map((n) => n.target.join(' ')),
    summary: v.nodes[0]?.failureSummary?.split('\n').slice(0, 3).join(' ') ?? '',
  }));
}

/** Whether the page is wider than the window, which on a phone means scrolling sideways. */
export const scrollsSideways = (page: Page): Promise<boolean> =>
  page.evaluate('document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth');
