import { pushableBranches } from '../store/index.js';
import { FLUSH_PKT, pktLine } from './pkt-line.js';

/**
 * What serve-push.ts speaks (gitprotocol-capabilities(5)): the report of each ref, side-band
 * messages, deletions (each refused in words, as git's own receive-pack refuses them),
 * `quiet`, offset deltas, and push options, which are read and left unused.
 */
const CAPABILITIES = [
  'report-status',
  'delete-refs',
  'side-band-64k',
  'quiet',
  'ofs-delta',
  'push-options',
  'object-format=sha1',
  'agent=specbase',
].join(' ');
const NO_REFS = `${'0'.repeat(40)} capabilities^{}`;

/**
 * The push advertisement (protocol v0/v1: git has no v2 push): the branches a push may update,
 * `main` and the change requests' `cr/{n}`, read from the repository here rather than by
 * starting `git receive-pack --advertise-refs` for each push.
 */
export function pushAdvertisement(gitdir: string): Buffer {
  const lines = pushableBranches(gitdir).map(({ ref, oid }) => `${oid} ${ref}`);
  const [first = NO_REFS, ...rest] = lines;
  return Buffer.concat([
    pktLine(`${first}\0${CAPABILITIES}\n`),
    ...rest.map((line) => pktLine(`${line}\n`)),
    FLUSH_PKT,
  ]);
}
