import type { ServerResponse } from 'node:http';

/**
 * How long an answer's first bytes may wait for the rest. A call answered within it (most
 * reads and searches) leaves in one write; a longer one sends its priming event then, so a
 * client whose stream breaks still has an event id to resume from.
 */
export const ANSWER_GATHER_MS = 20;

/**
 * Holds a POST's answer (headers, the SSE priming event, the result, the end of the stream)
 * until it ends or ANSWER_GATHER_MS passes, then writes it at once. The transport writes each
 * piece as it comes, and on loopback each write is a trip through the kernel's TCP stack on
 * the event loop: the two writes of a read cost about a tenth of its time there.
 */
export function gatherAnswer(res: ServerResponse, gatherMs = ANSWER_GATHER_MS): void {
  res.cork();
  // end() uncorks fully; the timer releases an answer still under way.
  const timer = setTimeout(() => res.uncork(), gatherMs);
  res.once('finish', () => clearTimeout(timer));
  res.once('close', () => clearTimeout(timer));
}
