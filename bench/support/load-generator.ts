/**
 * The load generator, in its own process: the runner sends it commands over IPC, it drives a
 * server with closed-loop clients over plain HTTP and answers with what it measured.
 */
import http from 'node:http';
import { callTool, closeSession, openSession, type WireEra, type WireSession } from './mcp-wire.js';
import { exitWithParent } from './child-ipc.js';

export interface ToolCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

export type LoadRequest =
  | { kind: 'open'; group: string; url: string; headers: Record<string, string>; clients: number; era?: WireEra }
  | { kind: 'run'; group: string; calls: ToolCall[]; warmupMs: number; measureMs: number }
  | { kind: 'first'; url: string; headers: Record<string, string>; calls: ToolCall[] }
  | { kind: 'close' };

export interface RunStats {
  readonly calls: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly firstError: string | null;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** Named groups of open sessions, one per server under test, so rounds can alternate between them. */
const groups = new Map<string, { sessions: WireSession[]; agent: http.Agent }>();
const agent = new http.Agent({ keepAlive: true });

/** Every client calls in a closed loop, cycling through `calls`; only calls started after the warm-up count. */
async function run(
  sessions: readonly WireSession[],
  calls: ToolCall[],
  warmupMs: number,
  measureMs: number,
): Promise<RunStats> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const measureFrom = performance.now() + warmupMs;
  const end = measureFrom + measureMs;
  await Promise.all(
    sessions.map(async (session, client) => {
      for (let i = client; performance.now() < end; i++) {
        const call = calls[i % calls.length]!;
        const began = performance.now();
        const error = await callTool(session, call.tool, call.args);
        if (began < measureFrom) continue;
        latencies.push(performance.now() - began);
        if (error !== null) {
          errors += 1;
          firstError ??= error;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    perSecond: latencies.length / (measureMs / 1000),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
    firstError,
  };
}

/**
 * The first calls a fresh server sees, all started at once, each on its own new session:
 * milliseconds from the first request (the first initialize) to each call's answer.
 */
async function first(
  url: URL,
  headers: Record<string, string>,
  calls: ToolCall[],
): Promise<{ ms: number[]; errors: (string | null)[] }> {
  const started = performance.now();
  const outcomes = await Promise.all(
    calls.map(async (call) => {
      const session = await openSession(url, headers, agent);
      const error = await callTool(session, call.tool, call.args);
      return { ms: performance.now() - started, error };
    }),
  );
  return { ms: outcomes.map((o) => o.ms), errors: outcomes.map((o) => o.error) };
}

process.on('message', (request: LoadRequest) => {
  const answer = async (): Promise<unknown> => {
    switch (request.kind) {
      case 'open': {
        const groupAgent = new http.Agent({ keepAlive: true, maxSockets: request.clients });
        const url = new URL(request.url);
        const sessions = await Promise.all(
          Array.from({ length: request.clients }, () => openSession(url, request.headers, groupAgent, request.era)),
        );
        groups.set(request.group, { sessions, agent: groupAgent });
        return { opened: sessions.length };
      }
      case 'run': {
        const group = groups.get(request.group);
        if (!group) throw new Error(`no session group ${request.group}`);
        return run(group.sessions, request.calls, request.warmupMs, request.measureMs);
      }
      case 'first':
        return first(new URL(request.url), request.headers, request.calls);
      case 'close':
        for (const group of groups.values()) {
          await Promise.all(group.sessions.map(closeSession));
          group.agent.destroy();
        }
        groups.clear();
        return { closed: true };
    }
  };
  answer().then(
    (value) => process.send!({ kind: 'answer', value }),
    (error: unknown) =>
      process.send!({
        kind: 'failed',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
exitWithParent();
process.send!({ kind: 'ready' });
