import { SourceError } from './rate.js';
import type { SourceEndpoint } from './settings.js';

/** A rate answer is a few kilobytes; anything far larger is not one, and is not read to its end. */
const MAX_BODY_BYTES = 256 * 1024;

export interface Answer {
  readonly status: number;
  readonly body: string;
  /** When the answer was made, by the HTTP `Date` header less any `Age` a cache added; undefined without one. */
  readonly madeAt: Date | undefined;
}

/**
 * GET `path` under a source's base URL, the whole exchange (connect, headers, body) bounded by
 * `timeoutMs` and by the caller's `signal`. Errors say what went wrong in the source's name, never
 * the URL (it may be a proxy's) nor the socket error's text (it names addresses).
 */
export async function get(
  endpoint: SourceEndpoint,
  path: string,
  options: { timeoutMs: number; signal?: AbortSignal | undefined; accept: string },
): Promise<Answer> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const headers: Record<string, string> = { accept: options.accept, 'user-agent': 'paydesk-rates' };
  if (endpoint.authorization) headers.authorization = endpoint.authorization;
  try {
    const res = await fetch(`${endpoint.url}${path}`, { headers, signal, redirect: 'error' });
    const body = await readBounded(res);
    return { status: res.status, body, madeAt: madeAt(res.headers) };
  } catch (err) {
    if (err instanceof SourceError) throw err;
    if (timeout.aborted) throw new SourceError('timeout', `no answer within ${options.timeoutMs} ms`);
    if (options.signal?.aborted) throw new SourceError('timeout', 'the lookup was abandoned');
    throw new SourceError('unreachable', 'the connection failed');
  }
}

async function readBounded(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_BODY_BYTES) {
    await res.body?.cancel();
    throw new SourceError('malformed', 'the answer is too large');
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new SourceError('malformed', 'the answer is too large');
    chunks.push(chunk);
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}

function madeAt(headers: Headers): Date | undefined {
  const date = Date.parse(headers.get('date') ?? '');
  if (Number.isNaN(date)) return undefined;
  const age = Number(headers.get('age') ?? '0');
  return new Date(date - (Number.isInteger(age) && age > 0 ? age * 1000 : 0));
}

/**
 * When an answer without a time of its own held: when the HTTP layer says it was made (a cache in
 * front of a source serves old answers with their old Date, or an Age), never later than now.
 */
export function asOf(answer: Answer, now: Date): Date {
  return answer.madeAt && answer.madeAt < now ? answer.madeAt : now;
}

/** The JSON of an answer, or SourceError('malformed'). */
export function json(answer: Answer): unknown {
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new SourceError('malformed', 'the answer is not JSON');
  }
}
