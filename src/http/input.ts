import type { FastifyRequest } from 'fastify';
import { ApiError, type ErrorLocation, type FieldError } from './errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/**
 * What arrives from the outside world, decoded strictly. Every string the app sees is well-formed
 * Unicode without NUL: PostgreSQL refuses NUL in text, and a lone surrogate would be stored silently
 * as U+FFFD, a value the caller never sent. Either is a VALIDATION_ERROR naming the field, never a 500
 * and never a silent change.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Keys that would reach an object's prototype if the parsed body were ever merged into another. */
const FORBIDDEN_KEYS = new Set(['__proto__']);

/**
 * The JSON body parser: UTF-8 only (a charset other than utf-8 is refused, not guessed), decoded
 * strictly (invalid bytes are refused, not replaced), refused when nested too deep (before anything
 * walks it recursively), parsed by JSON.parse (which keeps `__proto__` an
 * ordinary own key, so nothing is polluted while we look), then checked for forbidden keys.
 */
export function parseJsonBody(request: FastifyRequest, body: Buffer): unknown {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (charset && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw bodyError(
      'content_type',
      `The body must be UTF-8 JSON: send Content-Type: application/json (not charset=${charset.slice(0, 20)})`,
    );
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw bodyError('invalid_utf8', 'The body is not valid UTF-8');
  }
  if (text.trim() === '') throw bodyError('invalid_json', 'The body is empty; send a JSON object');
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw bodyError('too_deep', `The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bodyError('invalid_json', 'The body is not valid JSON');
  }
  const forbidden = findForbiddenKey(parsed, '');
  if (forbidden !== undefined) {
    throw ApiError.validation([
      {
        in: 'body',
        field: forbidden,
        rule: 'forbidden_key',
        message: `${forbidden} is refused: "__proto__" is never allowed as a key`,
      },
    ]);
  }
  return parsed;
}

function bodyError(rule: string, message: string): ApiError {
  return ApiError.validation([{ in: 'body', field: 'body', rule, message }]);
}

function findForbiddenKey(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) return at;
    const below = findForbiddenKey(child, at);
    if (below !== undefined) return below;
  }
  return undefined;
}

/** Query parameters whose percent-encoding is not valid UTF-8, kept aside for the input guard. */
const badlyEncoded = Symbol('badly encoded query parameters');

type Query = Record<string, string | string[]> & { [badlyEncoded]?: string[] };

/**
 * The query-string parser: `+` is a space, `%XX` sequences must decode to valid UTF-8. A parameter
 * that does not is kept undecoded and named in a list the input guard answers with
 * VALIDATION_ERROR. A repeated name becomes an array (which every schema then refuses).
 */
export function parseQueryString(text: string): Query {
  const out: Query = Object.create(null);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    const value = decode(rawValue);
    const name = key ?? rawKey;
    if (key === undefined || value === undefined) {
      out[badlyEncoded] ??= [];
      out[badlyEncoded].push(name);
    }
    const previous = out[name];
    const v = value ?? rawValue;
    out[name] = previous === undefined ? v : [...(Array.isArray(previous) ? previous : [previous]), v];
  }
  return out;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

// A NUL, or a surrogate half without its partner: text no database column can hold as sent.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what we refuse
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE = new RegExp(`${NUL.source}|${LONE_SURROGATE.source}`);

/**
 * Refuses a request whose query or body holds text the app cannot take as sent: every such field is
 * listed (contract §2: every violated rule). Path parameters are not checked here: they are ids, and
 * an id that cannot exist is NOT_FOUND (see `PathId` in schemas.ts).
 */
export function guardInput(request: FastifyRequest): void {
  const errors: FieldError[] = [];
  const query = request.query as Query | undefined;
  for (const name of query?.[badlyEncoded] ?? []) {
    errors.push(problem('query', name, 'invalid_unicode', 'is not valid UTF-8 once percent-decoded'));
  }
  if (query) collect('query', query, '', errors);
  if (request.body !== undefined) collect('body', request.body, '', errors);
  if (errors.length > 0) throw ApiError.validation(errors);
}

function collect(where: ErrorLocation, value: unknown, path: string, errors: FieldError[]): void {
  if (typeof value === 'string') {
    const found = textProblem(where, path || where, value, '');
    if (found) errors.push(found);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const found = textProblem(where, at, key, ' in its name');
    if (found) errors.push(found);
    else collect(where, child, at, errors);
  }
}

/** NUL is a control character (the rule order_id's own format uses); a lone surrogate is bad Unicode. */
function textProblem(where: ErrorLocation, field: string, text: string, of: string): FieldError | undefined {
  if (NUL.test(text))
    return problem(where, field, 'control_characters', `must not contain a NUL character${of}`);
  if (LONE_SURROGATE.test(text)) {
    return problem(where, field, 'invalid_unicode', `must be valid Unicode${of} (a lone surrogate is not)`);
  }
  return undefined;
}

function problem(where: ErrorLocation, field: string, rule: string, what: string): FieldError {
  // The field name itself may hold the offending characters: never echo them back raw.
  const shown = field.replace(UNSAFE_GLOBAL, '\uFFFD');
  return { in: where, field: shown, rule, message: `${shown} ${what}` };
}

const UNSAFE_GLOBAL = new RegExp(UNSAFE.source, 'g');
