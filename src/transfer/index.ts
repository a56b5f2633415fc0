/**
 * Markdown going in and out as files: one file read as the import takes it, the files of a zip
 * archive, and an export written as a zip archive. Shared by the command line and the web
 * application, which differ only in where the bytes come from and go to.
 */
export { importSourceOf } from './import-source.js';
export { importSourcesOfZip, isMarkdown } from './import-zip.js';
export { zipChunks } from './export-zip.js';
export { importSummary } from './import-summary.js';
