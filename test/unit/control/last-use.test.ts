import { expect, it } from 'vitest';
import { recordLastUse } from '../../../src/control/index.js';

const failing = (code: string, message: string) => Promise.reject(Object.assign(new Error(message), { code }));

it('a last use the disk refuses is skipped; any other failure still throws', async () => {
  await expect(recordLastUse(Promise.resolve(1))).resolves.toBeUndefined();
  await expect(recordLastUse(failing('SQLITE_IOERR_WRITE', 'disk I/O error'))).resolves.toBeUndefined();
  await expect(recordLastUse(failing('SQLITE_FULL', 'database or disk is full'))).resolves.toBeUndefined();
  await expect(recordLastUse(failing('SQLITE_CONSTRAINT', 'constraint failed'))).rejects.toThrow('constraint failed');
});
