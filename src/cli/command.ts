import type { Services } from '../app/services.js';
import { NotFoundError } from '../errors.js';

export type Flags = Record<string, string | boolean | undefined>;

export interface Command {
  readonly name: string;
  readonly usage: string;
  readonly flags: Record<string, { type: 'string' | 'boolean' }>;
  readonly required?: readonly string[];
  run(services: Services, flags: Flags): Promise<Record<string, unknown>>;
}

export const text = (flags: Flags, name: string): string => {
  const value = flags[name];
  return typeof value === 'string' ? value.trim() : '';
};

export async function orgOf(services: Services, id: string) {
  const org = await services.control.orgs.get(id);
  if (!org) throw new NotFoundError('organization', { org: id });
  return org;
}
