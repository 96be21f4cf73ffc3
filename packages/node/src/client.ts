import type { GetMeResponse } from './generated/openapi.js';
import { operations } from './generated/openapi.js';
import { assertSecretKey, assertServerSide, normaliseBaseUrl } from './guard.js';
import { Invoices } from './invoices.js';
import { PaymentLinks } from './payment-links.js';
import { Refunds } from './refunds.js';
import { send, type TransportSettings } from './transport.js';
import type { Me, RequestOptions } from './types.js';
import { Webhooks } from './webhooks.js';

export interface PaydeskOptions {
  /** Your Paydesk's public address (its PUBLIC_BASE_URL). Default: http://127.0.0.1:3000, `npm start`'s. */
  baseUrl?: string;
  /** How long one attempt may take, answer included. Default: 30 s. */
  timeoutMs?: number;
  /** Retries after a network error, 409, 429 or 5xx. Default: 2 (so at most 3 attempts). */
  maxRetries?: number;
  /** How the client waits between retries. Default: a timer; tests pass their own to move a fake clock. */
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;

/** A client for one project, authenticated by its secret API key. Use it only on your server. */
export class Paydesk {
  readonly invoices: Invoices;
  readonly refunds: Refunds;
  readonly paymentLinks: PaymentLinks;
  readonly webhooks = new Webhooks();
  // A private field: the key does not show in console.log(paydesk) or in JSON.
  readonly #settings: TransportSettings;

  constructor(secretKey: string, options: PaydeskOptions = {}) {
    assertServerSide();
    assertSecretKey(secretKey);
    this.#settings = {
      baseUrl: normaliseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL),
      secretKey,
      timeoutMs: positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1),
      maxRetries: positiveInteger('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES, 0),
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    };
    this.invoices = new Invoices((call, callOptions) => send(this.#settings, call, callOptions));
    this.refunds = new Refunds((call, callOptions) => send(this.#settings, call, callOptions));
    this.paymentLinks = new PaymentLinks((call, callOptions) => send(this.#settings, call, callOptions));
  }

  /** The project and API key in use: a quick check that the key works and its project is active. */
  async me(options?: RequestOptions): Promise<Me> {
    return (await send<GetMeResponse>(this.#settings, operations.getMe, options)).data;
  }
}

function positiveInteger(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new TypeError(`new Paydesk(key, { ${name} }): expected an integer of at least ${min}`);
  }
  return value;
}
