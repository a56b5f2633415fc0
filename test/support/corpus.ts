import { ARTIFACT_TYPES, type ArtifactType } from '../../src/artifacts/index.js';
import type { IndexedDocument } from '../../src/search/index.js';

export const CORPUS_SEED = 20240611;
/** The workspaces a corpus's artifacts belong to, in turn. */
export const CORPUS_WORKSPACES = ['ws-product', 'ws-platform', 'ws-internal'];
/** When every corpus document last changed. */
export const CORPUS_UPDATED_AT = '2026-01-01T00:00:00.000Z';

const NOUNS = [
  'checkout',
  'payment',
  'refund',
  'invoice',
  'subscription',
  'order',
  'cart',
  'shopper',
  'customer',
  'notification',
  'email',
  'push',
  'sms',
  'account',
  'profile',
  'password',
  'address',
  'delivery',
  'shipment',
  'carrier',
  'warehouse',
  'inventory',
  'catalog',
  'product',
  'category',
  'price',
  'discount',
  'coupon',
  'loyalty',
  'points',
  'wallet',
  'card',
  'bank',
  'transfer',
  'currency',
  'tax',
  'receipt',
  'report',
  'dashboard',
  'export',
  'import',
  'webhook',
  'integration',
  'partner',
  'merchant',
  'seller',
  'admin',
  'role',
  'permission',
  'audit',
  'log',
  'session',
  'token',
  'search',
  'filter',
  'review',
  'rating',
  'return',
  'exchange',
  'support',
  'ticket',
  'agent',
  'chat',
  'onboarding',
  'tour',
  'setting',
  'preference',
  'language',
  'locale',
  'timezone',
  'fraud',
  'risk',
  'rule',
  'limit',
  'quota',
  'retry',
  'latency',
  'availability',
  'accessibility',
  'reader',
  'theme',
  'mode',
  'retention',
  'privacy',
  'consent',
];
const VERBS = [
  'create',
  'update',
  'cancel',
  'confirm',
  'send',
  'receive',
  'review',
  'approve',
  'reject',
  'export',
  'import',
  'track',
  'notify',
  'validate',
  'calculate',
  'display',
  'store',
  'retry',
  'refund',
  'charge',
  'authorize',
  'capture',
  'schedule',
  'filter',
  'search',
  'sort',
  'archive',
  'restore',
  'share',
  'invite',
];
const ADJECTIVES = [
  'guest',
  'express',
  'recurring',
  'partial',
  'full',
  'mobile',
  'weekly',
  'monthly',
  'secure',
  'fast',
  'bulk',
  'automatic',
  'manual',
  'default',
  'saved',
  'digital',
  'international',
  'local',
  'dark',
  'accessible',
  'single',
  'multiple',
  'optional',
  'required',
  'failed',
  'pending',
  'delayed',
];
const SUBJECTS = [
  'The shopper',
  'A support agent',
  'The system',
  'An admin',
  'The merchant',
  'A guest',
  'The finance team',
];

/** mulberry32: small, fast, and the same sequence on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `size` artifacts of made-up product text (a title, a paragraph, a few sections), the same on
 * every machine for a seed: the search bench's corpus and the seeded organizations' texts.
 */
export function generateCorpus(size: number, seed = CORPUS_SEED): IndexedDocument[] {
  const random = seededRandom(seed);
  // Squaring skews picks toward the front of each list, as real vocabularies are skewed.
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() ** 2 * items.length)]!;
  const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
  const sentence = (): string =>
    `${pick(SUBJECTS)} can ${pick(VERBS)} the ${pick(ADJECTIVES)} ${pick(NOUNS)} ${pick(NOUNS)} when the ${pick(NOUNS)} is ${pick(ADJECTIVES)}.`;
  const paragraph = (): string => Array.from({ length: 2 + Math.floor(random() * 4) }, sentence).join(' ');
  const docs: IndexedDocument[] = [];
  for (let n = 0; n < size; n += 1) {
    const type: ArtifactType = ARTIFACT_TYPES[n % ARTIFACT_TYPES.length]!;
    const title = capitalize(
      `${random() < 0.5 ? `${pick(ADJECTIVES)} ` : ''}${pick(NOUNS)} ${pick(NOUNS)}${random() < 0.3 ? ` ${pick(NOUNS)}` : ''}`,
    );
    const sections = Array.from(
      { length: 1 + Math.floor(random() * 3) },
      () =>
        `## ${capitalize(pick(NOUNS))}\n\n${paragraph()}\n\n- **${pick(VERBS)}** ${pick(NOUNS)}\n- ${pick(ADJECTIVES)} ${pick(NOUNS)}`,
    );
    docs.push({
      id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
      type,
      workspaceId: CORPUS_WORKSPACES[n % CORPUS_WORKSPACES.length]!,
      title,
      body: `# ${title}\n\n${paragraph()}\n\n${sections.join('\n\n')}\n`,
      updatedAt: CORPUS_UPDATED_AT,
    });
  }
  return docs;
}
