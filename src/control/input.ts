import { InvalidInputError } from '../errors.js';
import { isUuid } from '../ids.js';

/** Trimmed, non-empty, bounded text; `what` names the field in the error. */
export function requiredText(value: unknown, what: string, maxLength = 200): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw new InvalidInputError(`${what} must not be empty`);
  if (text.length > maxLength) throw new InvalidInputError(`${what} is longer than ${maxLength} characters`);
  return text;
}

/** Emails compare case-insensitively everywhere, so they are stored lower-case. */
export function normalizedEmail(value: unknown): string {
  const email = requiredText(value, 'email', 320).toLowerCase();
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new InvalidInputError(`not an email address: ${email}`);
  return email;
}

export function optionalUuid(value: string | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isUuid(value))
    throw new InvalidInputError(`${what} must be a UUID, got ${JSON.stringify(String(value).slice(0, 80))}`);
  return value;
}
