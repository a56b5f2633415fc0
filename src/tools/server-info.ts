/** What both protocol eras' servers say about themselves. */
export const SERVER_INFO = Object.freeze({ name: 'specbase', title: 'Specbase', version: '0.1.0' });

export const SERVER_CAPABILITIES = Object.freeze({ tools: { listChanged: false } });

export const INSTRUCTIONS =
  'Specbase holds this organization\'s product knowledge as markdown documents: one Product with Capabilities > Features > Requirements > Acceptance Criteria, User Types, Core Entities, and free-form Pages in folders. ' +
  'Start with specbase_search or specbase_read_product; read with mode "full" before editing with a unified diff.';
