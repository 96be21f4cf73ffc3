import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderErrors, sendApiError } from '../http/error-handler.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { html } from '../web/html.js';
import { authPage, type PageMessage, ROOT } from './layout.js';

/** No session (or an ended one): pages send the browser to sign in; JSON calls get the envelope. */
export function signInRequired(): ApiError {
  // Contract §2: every 401 carries WWW-Authenticate: Bearer, this one included.
  return new ApiError('API_KEY_REQUIRED', 'Sign in to the dashboard first', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
}

export function isJsonRoute(request: FastifyRequest): boolean {
  return request.url.startsWith(`${ROOT}/api/`);
}

function page(reply: FastifyReply, status: number, heading: string, messages: readonly PageMessage[]) {
  setSecurityHeaders(reply);
  noStore(reply);
  const body = html`<h1>${heading}</h1>
${messages.map((m) => (typeof m === 'string' ? html`<p>${m}</p>` : html`<p data-rule="${m.rule}">${m.text}</p>`))}
<div class="actions"><a class="button" href="${ROOT}">Back to the dashboard</a></div>`;
  return reply.code(status).type('text/html; charset=utf-8').send(authPage(heading, body));
}

/**
 * What people call the dashboard's form fields; any other is its name in words (`new_password` →
 * "New password"). A Map, not an object literal: a field named `__proto__` must not find
 * Object.prototype.
 */
const LABELS = new Map([
  ['brand_color', 'Brand colour'],
  ['currency', 'Invoice currency'],
  ['current_password', 'Current password'],
  ['evm_xpub', 'EVM xpub'],
  ['new_password', 'New password'],
  ['payment_methods', 'Payment methods'],
  ['payout_address', 'Payout address'],
  ['solana_address', 'Solana wallet address'],
  ['project_id', 'Project'],
  ['tron_xpub', 'TRON xpub'],
  ['ttl_minutes', 'Invoice lifetime'],
  ['underpayment_tolerance_percent', 'Underpayment tolerance'],
  ['url', 'Endpoint URL'],
  ['xpub', 'Extended public key (xpub)'],
]);

function label(field: string): string {
  const name = field.split('.').pop() ?? field;
  const words = LABELS.get(name) ?? name.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const UNREADABLE = 'The form could not be read. Reload the page and try again.';

/**
 * Numbers people type as text: a form sends what was typed when it is not a number, so a wrong type
 * there is theirs to fix (settings.form.ts says how), not a sign of a badly built request.
 */
const TYPED_NUMBERS = new Set(['ttl_minutes', 'underpayment_tolerance_percent']);

/**
 * One field error in words for people: the API's messages name fields as the wire spells them
 * (`ttl_minutes must be at least 1`); the dashboard says "Invoice lifetime must be at least 1", and
 * never shows a validator's own text. A body that could not be read, a field the form does not have
 * or a value of the wrong type says how the request was built, not what a person typed: they can
 * only reload the page and try again.
 */
export function humanMessage(e: FieldError): string {
  if (e.field === '_csrf') return 'This form has expired. Reload the page and try again.';
  if (e.in === 'body' && e.field === 'body') {
    return e.rule === 'too_large' ? 'The form is larger than the dashboard accepts.' : UNREADABLE;
  }
  if (e.rule === 'unknown_field' || (e.rule === 'type' && !TYPED_NUMBERS.has(e.field))) return UNREADABLE;
  const lead = e.message.startsWith(`${e.field} `)
    ? `${label(e.field)}${e.message.slice(e.field.length)}`
    : e.message;
  return inWords(lead);
}

/**
 * The API's messages name other fields too ("… the extended public key (evm_xpub) …, or a
 * payout_address"): each field the form has is said by its label, in lower case mid-sentence
 * unless the label starts with an acronym ("EVM xpub").
 */
const FIELD_NAMES = new RegExp(`\\b(${[...LABELS.keys()].filter((f) => f.includes('_')).join('|')})\\b`, 'g');

function inWords(message: string): string {
  return message.replace(FIELD_NAMES, (field, _name, at: number) => {
    const words = label(field);
    return at === 0 || /^[A-Z]{2}/.test(words) ? words : words.charAt(0).toLowerCase() + words.slice(1);
  });
}

/**
 * What a VALIDATION_ERROR says, one message per violated rule (its own message when it lists none),
 * each with its rule's name, which the page carries (data-rule) as the API's envelope would.
 */
export function validationMessages(err: ApiError): PageMessage[] {
  const errors = (err.details.errors as FieldError[] | undefined) ?? [];
  if (errors.length === 0) return [err.message];
  const seen = new Set<string>();
  const out: PageMessage[] = [];
  for (const e of errors) {
    const text = humanMessage(e);
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ text, rule: e.rule });
  }
  return out;
}

/**
 * The dashboard's renderer of the one classifier (http/error-handler.ts): the contract's codes and
 * statuses, shown as a page. JSON routes (/dashboard/api) get the envelope.
 */
export function renderDashboardError(request: FastifyRequest, reply: FastifyReply, err: ApiError) {
  if (isJsonRoute(request)) return sendApiError(request, reply, err);
  reply.headers(err.headers);
  switch (err.code) {
    case 'API_KEY_REQUIRED':
      if (request.method === 'GET') return reply.redirect(`${ROOT}/sign-in`, 303);
      return page(reply, 401, 'Please sign in again', ['Your session has ended. Sign in and try again.']);
    case 'VALIDATION_ERROR':
      return page(reply, 422, 'That did not work', validationMessages(err));
    case 'NOT_FOUND':
      return page(reply, 404, 'Not found', [err.message]);
    case 'RATE_LIMITED':
      return page(reply, 429, 'Too many attempts', [err.message]);
    case 'INTERNAL_SERVER_ERROR':
      return page(reply, err.statusCode, 'Something went wrong', [
        'This is a problem on our side. Please try again in a moment.',
      ]);
    default:
      return page(reply, err.statusCode, 'Not allowed', [err.message]);
  }
}

export const dashboardErrors = renderErrors(renderDashboardError);
