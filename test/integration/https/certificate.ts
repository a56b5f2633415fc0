import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface SelfSigned {
  readonly dir: string;
  readonly certFile: string;
  readonly keyFile: string;
  /** The certificate in PEM, to trust it as its own CA. */
  readonly pem: string;
}

/** A fresh self-signed certificate for localhost and 127.0.0.1, valid for a day. */
export async function selfSignedCertificate(): Promise<SelfSigned> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'specbase-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  return { dir, certFile, keyFile, pem: await readFile(certFile, 'utf8') };
}
