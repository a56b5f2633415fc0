import type { Readable } from 'node:stream';
import { InvalidInputError } from '../errors.js';

/** One ref update a push asks for; null for a ref that is created (old) or deleted (new). */
export interface RefCommand {
  readonly old: string | null;
  readonly new: string | null;
  readonly ref: string;
}

/** The part of a receive-pack request before its pack (see gitprotocol-pack(5), "Reference Update Request"). */
export interface PushRequest {
  readonly commands: readonly RefCommand[];
  readonly capabilities: ReadonlySet<string>;
  /** Commits a shallow clone's history ends at: such a push cannot be judged whole. */
  readonly shallow: readonly string[];
  /** Whether a pack follows: every push but one that only deletes refs sends one. */
  readonly sendsPack: boolean;
}

/** Longest command section taken: a push updates one branch; this leaves room for git's capability list. */
const MAX_SECTION_BYTES = 256 * 1024;
const OID = /^[0-9a-f]{40}$/;
const ZERO_OID = /^0{40}$/;

/**
 * Takes exact numbers of bytes from a stream: a request's pkt-lines, then the pack header.
 * The rest stays in the stream, which is then piped on as it is.
 */
export class StreamBytes {
  constructor(readonly input: Readable) {}

  /** The next `count` bytes; null when the stream ended first. */
  async take(count: number): Promise<Buffer | null> {
    for (;;) {
      const chunk = this.input.read(count) as Buffer | null;
      if (chunk) return chunk.length === count ? chunk : null;
      if (this.input.readableEnded || this.input.destroyed) return null;
      await readableOrEnded(this.input);
    }
  }
}

function readableOrEnded(input: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const stopListening = () => input.off('readable', done).off('end', done).off('close', done).off('error', failed);
    const done = () => {
      stopListening();
      resolve();
    };
    const failed = (error: Error) => {
      stopListening();
      reject(error);
    };
    input.once('readable', done).once('end', done).once('close', done).once('error', failed);
  });
}

const malformed = (what: string) => new InvalidInputError(`malformed push request: ${what}`);

/** Payloads of pkt-lines up to the next flush-pkt. */
async function readSection(bytes: StreamBytes): Promise<string[]> {
  const lines: string[] = [];
  let total = 0;
  for (;;) {
    const head = await bytes.take(4);
    if (!head) throw malformed('it ended before its flush-pkt');
    const text = head.toString('latin1');
    if (!/^[0-9a-f]{4}$/.test(text)) throw malformed(`"${text}" is no pkt-line length`);
    const length = Number.parseInt(text, 16);
    if (length === 0) return lines;
    if (length < 5) throw malformed(`a pkt-line of length ${length}`);
    total += length;
    if (total > MAX_SECTION_BYTES) throw malformed(`its commands pass ${MAX_SECTION_BYTES} bytes`);
    const payload = await bytes.take(length - 4);
    if (!payload) throw malformed('it ended inside a pkt-line');
    lines.push(payload.toString('utf8').replace(/\n$/, ''));
  }
}

function parseCommand(line: string): RefCommand {
  const [old = '', next = '', ref = '', ...extra] = line.split(' ');
  if (!OID.test(old) || !OID.test(next) || !ref.startsWith('refs/') || extra.length > 0) {
    throw malformed(`"${line.slice(0, 120)}" is no "<old-id> <new-id> <ref>" command`);
  }
  return { old: ZERO_OID.test(old) ? null : old, new: ZERO_OID.test(next) ? null : next, ref };
}

/**
 * Reads a receive-pack request up to its pack: `shallow` lines, then the ref commands (the first
 * carrying the client's capabilities after a NUL), then push options when the client sends them.
 * The pack, if any, is what `bytes` holds next. Throws InvalidInputError on anything else.
 */
export async function readPushRequest(bytes: StreamBytes): Promise<PushRequest> {
  const lines = await readSection(bytes);
  const shallow: string[] = [];
  while (lines[0]?.startsWith('shallow ')) shallow.push(lines.shift()!.slice('shallow '.length));
  const [first, ...rest] = lines;
  // A flush alone updates nothing, and is answered with nothing, as git's receive-pack does.
  if (first === undefined) return { commands: [], capabilities: new Set(), shallow, sendsPack: false };
  const nul = first.indexOf('\0');
  const capabilities = new Set(
    nul < 0
      ? []
      : first
          .slice(nul + 1)
          .split(' ')
          .filter(Boolean),
  );
  const commands = [nul < 0 ? first : first.slice(0, nul), ...rest].map(parseCommand);
  // Push options (`git push -o`) are read past; nothing here takes any.
  if (capabilities.has('push-options')) await readSection(bytes);
  return { commands, capabilities, shallow, sendsPack: commands.some((c) => c.new !== null) };
}
