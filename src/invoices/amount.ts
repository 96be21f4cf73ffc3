import { registerFormat } from '../http/validation.js';

/** Contract §4: up to 15 integer digits, no leading zero, optionally 1 or 2 decimals. */
const AMOUNT = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/;

export type AmountResult =
  | {
      ok: true /** normalised to two decimals: "10" → "10.00" */;
      value: string /** in cents */;
      minor: bigint;
    }
  | { ok: false; rule: string; message: string };

/**
 * Parses a money amount sent as a string. Never throws, never touches a float: the value is carried
 * as a decimal string and as a bigint of minor units.
 */
export function parseAmount(input: unknown, field = 'amount'): AmountResult {
  if (typeof input !== 'string') {
    return {
      ok: false,
      rule: 'type',
      message: `${field} must be a string such as "10.50", not a JSON ${jsonType(input)}`,
    };
  }
  const match = AMOUNT.exec(input);
  if (!match) return diagnose(input, field);
  const whole = match[1] as string;
  const cents = (match[2] ?? '.').slice(1).padEnd(2, '0');
  const minor = BigInt(whole) * 100n + BigInt(cents);
  if (minor === 0n) return { ok: false, rule: 'positive', message: `${field} must be greater than zero` };
  return { ok: true, value: `${whole}.${cents}`, minor };
}

function diagnose(input: string, field: string): AmountResult {
  if (/^(0|[1-9][0-9]*)\.[0-9]{3,}$/.test(input)) {
    return {
      ok: false,
      rule: 'decimal_places',
      message: `${field} may have at most 2 digits after the decimal point`,
    };
  }
  if (/^[1-9][0-9]{15,}(\.[0-9]{1,2})?$/.test(input)) {
    return {
      ok: false,
      rule: 'max_digits',
      message: `${field} may have at most 15 digits before the decimal point`,
    };
  }
  if (/^-/.test(input)) return { ok: false, rule: 'positive', message: `${field} must be greater than zero` };
  return {
    ok: false,
    rule: 'format',
    message: `${field} must be a positive decimal string such as "10" or "10.50" (no sign, exponent, spaces or leading zeros)`,
  };
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export const amountFormat = registerFormat({
  name: 'amount',
  validate: (v) => parseAmount(v).ok,
  explain: (v, field) => {
    const r = parseAmount(v, field);
    return r.ok ? { rule: 'format', message: `${field} is invalid` } : { rule: r.rule, message: r.message };
  },
});
