import type { ImportReport } from '../domain/index.js';

/** One line for the audit log, the same from the command line and the web application. */
export const importSummary = (report: ImportReport): string =>
  `imported ${report.imported.length}, skipped ${report.skipped.length}, refused ${report.refused.length}, links rewritten ${report.linksRewritten}`;
