import busboy from 'busboy';
import type { Request } from 'express';
import type { Limits } from '../config/index.js';
import { PayloadTooLargeError } from '../errors.js';

export interface Upload {
  readonly fields: Record<string, string>;
  readonly files: readonly { readonly name: string; readonly bytes: Buffer }[];
}

/**
 * A multipart form of markdown files (a folder's, with their relative paths as browsers send
 * them) or one zip archive, read whole into memory within the import's limits: more bytes or
 * more files than one import takes stop the reading at once, with PayloadTooLargeError.
 */
export function readUpload(req: Request, limits: Limits): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // A folder's files come with their paths inside it, which the import keeps as folders.
        preservePath: true,
        limits: { fileSize: limits.maxImportBytes, files: limits.maxImportFiles, fields: 20, fieldSize: 8 * 1024 },
      });
    } catch (error) {
      reject(error);
      return;
    }
    const fields: Record<string, string> = {};
    const files: { name: string; bytes: Buffer }[] = [];
    let total = 0;
    let failed = false;
    // The rest of the request is read and thrown away before the answer, so that the browser,
    // still sending, gets the 413 page rather than a reset connection; past another limit's
    // worth the connection is cut instead.
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      let drained = 0;
      const answer = () => reject(error);
      req.on('data', (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > limits.maxImportBytes) answer();
      });
      if (req.complete) return answer();
      req.once('end', answer);
      req.once('error', answer);
      req.resume();
    };
    const tooLarge = (what: string) => {
      const error = new PayloadTooLargeError('the upload', limits.maxImportBytes, total);
      error.message = `The upload holds more than ${what}, which one import takes at most. Nothing was written.`;
      fail(error);
    };
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (_field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limits.maxImportBytes) return tooLarge(`${limits.maxImportBytes} bytes`);
        chunks.push(chunk);
      });
      stream.on('limit', () => tooLarge(`${limits.maxImportBytes} bytes`));
      stream.on('end', () => {
        if (info.filename) files.push({ name: info.filename, bytes: Buffer.concat(chunks) });
      });
    });
    parser.on('filesLimit', () => tooLarge(`${limits.maxImportFiles} files`));
    parser.on('error', (error: Error) => fail(error));
    parser.on('close', () => {
      if (!failed) resolve({ fields, files });
    });
    req.pipe(parser);
  });
}
