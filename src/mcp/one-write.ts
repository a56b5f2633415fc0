import type { ServerResponse } from 'node:http';

/**
 * How long an answer's first bytes may wait for the rest. A call answered within it (most
 * reads and searches) leaves in one write; a longer one sends its priming event then, so a
 * client whose stream breaks still has an event id to resume from.
 */
export const ANSWER_GATHER_MS = 20;

/**
 * Holds a POST's answer (headers, the SSE priming event, the result, the end of the stream)
 * until it ends or `gatherMs` passes, then writes it at once. The transport writes each
 * piece as it comes, and on loopback each write is a trip through the kernel's TCP stack on
 * the event loop: the two writes of a read cost about a tenth of its time there.
 *
 * The socket is corked, not the response: from Node 22 on, a corked response keeps its chunks
 * itself, and end() writes the last chunk's terminator before them (the answer came out
 * corrupt). A socket keeps writes in order and end() fully uncorks it.
 *
 * An answer larger than the socket's buffer (a search at limit 50 is about 37 KB) makes the
 * transport wait for 'drain' before writing on, which a corked socket never gives: such an
 * answer leaves as soon as a write finds the buffer full, not when the gathering time is up
 * (it waited those 20 ms every time).
 */
export function gatherAnswer(res: ServerResponse, gatherMs: number): void {
  const socket = res.socket;
  // A pipelined response waiting for its turn has no socket yet: it is written as it comes.
  if (!socket) return;
  socket.cork();
  const release = () => {
    if (socket.writableCorked > 0) socket.uncork();
  };
  const timer = setTimeout(release, gatherMs);
  const write = res.write;
  res.write = function writeOrRelease(this: ServerResponse, ...args: Parameters<ServerResponse['write']>): boolean {
    const room = (write as (...a: typeof args) => boolean).apply(this, args);
    if (!room) release();
    return room;
  } as ServerResponse['write'];
  // 'close' follows the end of every response, sent or cut off.
  res.once('close', () => clearTimeout(timer));
}
