import { storageFailureOf } from '../errors.js';

/**
 * Writes a credential's last use; a disk that refuses the write (a read-only or full one, see
 * storageFailureOf) does not refuse the request with it. Last use is bookkeeping, kept to the
 * minute, and while the control database cannot be written, reading must still work. Any other
 * failure still throws.
 */
export async function recordLastUse(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (!storageFailureOf(error)) throw error;
  }
}
