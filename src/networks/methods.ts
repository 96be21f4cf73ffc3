import type { FieldError } from '../http/errors.js';
import { isFiat } from '../money/currencies.js';
import { checksumAddress, isAddress } from './evm-address.js';
import { FAMILY, type FamilyName, type XpubFamily } from './family.js';
import { mixedEnvironmentsError } from './livemode.js';
import { CURRENCIES, type Currency, INVOICE_CURRENCIES, type NetworkRegistry, SANDBOX } from './network.js';
import { unknownNetwork } from './settings.js';
import { walletAddressProblem } from './solana-address.js';
import { parseXpub } from './xpub.js';

/**
 * Payment methods (contract §15): the `{network, currency}` pairs a project accepts, and the rules
 * that hold them together with its invoice currency and keys. The admin API and the dashboard's
 * Settings both go through paymentSettingsErrors, so a combination is refused alike, with the same
 * field and rule, whichever surface it comes through.
 */

export interface PaymentMethod {
  network: string;
  currency: Currency;
}

export const MAX_METHODS = 30;

/** `sandbox` offers both tokens, with the 6 decimals they have on most chains. */
const SANDBOX_DECIMALS = 6;

/** How an address is written and derived for a method: a chain family, or the sandbox's synthetic one. */
export type AddressKind = FamilyName | 'sandbox';

/** `polygon:USDC`: a method in the page's URL (`?method=`) and wherever one must be named in one word. */
export const methodKey = (m: PaymentMethod) => `${m.network}:${m.currency}`;

export function sameMethod(a: PaymentMethod, b: PaymentMethod): boolean {
  return a.network === b.network && a.currency === b.currency;
}

/** "USDT on TRON", "USDC on Polygon": a method as people read it. */
export function methodLabel(networks: NetworkRegistry, m: PaymentMethod): string {
  return `${m.currency} on ${networks.label(m.network)}`;
}

/**
 * Whether an invoice priced in `invoiceCurrency` may be paid in `token`: a token invoice only in
 * itself; USD (at par) and any other currency (at a locked rate, contract §19) in either token.
 */
export function payableIn(invoiceCurrency: string, token: string): boolean {
  const tokens: readonly string[] = CURRENCIES;
  if (tokens.includes(invoiceCurrency)) return invoiceCurrency === token;
  return tokens.includes(token);
}

/** Where a method's deposit address comes from; undefined for a network the registry does not know. */
export function addressKind(networks: NetworkRegistry, network: string): AddressKind | undefined {
  if (network === SANDBOX) return 'sandbox';
  return networks.get(network)?.family;
}

/** The token's decimals on the network; undefined when the network does not offer it. */
export function tokenDecimals(networks: NetworkRegistry, m: PaymentMethod): number | undefined {
  if (m.network === SANDBOX) return SANDBOX_DECIMALS;
  return networks.token(m.network, m.currency)?.decimals;
}

/** The tokens of a network payable in the invoice currency, in the registry's order (USDT, USDC). */
export function networkMethods(
  networks: NetworkRegistry,
  network: string,
  invoiceCurrency: string,
): PaymentMethod[] {
  const offered: readonly Currency[] =
    network === SANDBOX ? CURRENCIES : CURRENCIES.filter((c) => networks.token(network, c) !== undefined);
  return offered.filter((c) => payableIn(invoiceCurrency, c)).map((currency) => ({ network, currency }));
}

/** What a project's payment settings are, all together (contract §15). */
export interface PaymentSettings {
  currency: string;
  /** The fiat currencies an enabled rate source quotes, besides USD, USDT and USDC (contract §19). */
  priced: ReadonlySet<string>;
  methods: readonly PaymentMethod[];
  evmXpub: string | null;
  tronXpub: string | null;
  /** Where EVM deposits are collected to (contract §16): EVM methods then need no evm_xpub. */
  payoutAddress?: string | null;
  /** The merchant's Solana wallet (contract §24): Solana methods pay straight into its token accounts. */
  solanaAddress?: string | null;
  /**
   * Which keys this change sends: a stored key no method uses is kept, one sent for none is refused.
   * `methods`: whether it sends the methods (default true); a project saved before contract §21 that
   * mixes live and test keeps its other settings editable until its methods are saved again.
   */
  given?: { evm: boolean; tron: boolean; payout?: boolean; solana?: boolean; methods?: boolean };
}

const error = (field: string, rule: string, message: string): FieldError => ({
  in: 'body',
  field,
  rule,
  message,
});

/**
 * Every reason the settings cannot stand together: each method is a token its network offers and is
 * payable in the invoice currency, appears once, and has the key its family derives addresses from.
 */
export function paymentSettingsErrors(networks: NetworkRegistry, s: PaymentSettings): FieldError[] {
  const currencyProblem = currencyError(s.currency, s.priced);
  if (currencyProblem) return [currencyProblem];
  const problems: FieldError[] = [];
  if (s.methods.length === 0 || s.methods.length > MAX_METHODS) {
    problems.push(error('payment_methods', 'size', `payment_methods must hold 1 to ${MAX_METHODS} methods`));
  }
  const seen = new Set<string>();
  const kinds = new Set<AddressKind>();
  s.methods.forEach((m, i) => {
    const field = `payment_methods.${i}`;
    const kind = addressKind(networks, m.network);
    if (!kind) {
      problems.push(...unknownNetwork(networks).map((e) => ({ ...e, field: `${field}.network` })));
      return;
    }
    kinds.add(kind);
    if (seen.has(methodKey(m))) {
      problems.push(error(field, 'duplicate', `${m.currency} on ${m.network} is listed twice`));
    }
    seen.add(methodKey(m));
    if (tokenDecimals(networks, m) === undefined) {
      const network = networks.get(m.network);
      const offered = Object.keys(network?.tokens ?? {}).join(', ') || 'none configured';
      const why =
        network?.family === 'tron' && m.currency === 'USDC' ? '; Circle ended USDC on TRON in 2024' : '';
      problems.push(
        error(
          `${field}.currency`,
          'unsupported',
          `${m.currency} is not available on ${m.network} (offered: ${offered})${why}`,
        ),
      );
    } else if (!payableIn(s.currency, m.currency)) {
      problems.push(
        error(
          `${field}.currency`,
          'not_payable',
          `an invoice in ${s.currency} cannot be paid in ${m.currency}; use currency USD to accept both tokens`,
        ),
      );
    }
  });
  // A method on an unknown network says so; whether a key is needed waits until the network is known.
  if (s.methods.some((m) => addressKind(networks, m.network) === undefined)) return problems;
  const given = s.given ?? { evm: true, tron: true };
  const mixed = given.methods === false ? undefined : mixedEnvironmentsError(networks, s.methods);
  if (mixed) problems.push(mixed);
  const payout = s.payoutAddress ?? null;
  problems.push(...payoutErrors(kinds.has('evm'), payout, given.payout ?? true));
  // With a payout address, EVM deposit addresses are forwarders: the xpub is optional.
  problems.push(
    ...keyErrors('evm', kinds.has('evm') && payout === null, s.evmXpub, given.evm, kinds.has('evm')),
  );
  problems.push(...keyErrors('tron', kinds.has('tron'), s.tronXpub, given.tron));
  problems.push(...solanaErrors(kinds.has('solana'), s.solanaAddress ?? null, given.solana ?? true));
  if (s.evmXpub !== null && s.evmXpub === s.tronXpub) {
    problems.push(
      error(
        'tron_xpub',
        'same_key',
        "evm_xpub and tron_xpub must differ: wallets derive them at m/44'/60'/0' and m/44'/195'/0'",
      ),
    );
  }
  return problems;
}

function currencyError(currency: string, priced: ReadonlySet<string>): FieldError | undefined {
  if ((INVOICE_CURRENCIES as readonly string[]).includes(currency) || priced.has(currency)) return undefined;
  if (isFiat(currency)) {
    return error(
      'currency',
      'unsupported',
      `no enabled exchange-rate source quotes ${currency}; the operator can enable one that does (PAYDESK_RATE_SOURCES)`,
    );
  }
  return error(
    'currency',
    'enum',
    `currency must be USD, USDT, USDC or an ISO 4217 currency code such as EUR, GBP or JPY`,
  );
}

/**
 * The payout address of forwarders (contract §16): EIP-55 exactly, as a wallet shows it (money goes
 * there, and the checksum catches a mistyped character), never the zero address, and only for a
 * project with an EVM method.
 */
function payoutErrors(evm: boolean, payout: string | null, given: boolean): FieldError[] {
  if (payout === null) return [];
  if (!evm) {
    const message = 'payout_address is only for projects that accept an EVM method';
    return given ? [error('payout_address', 'not_allowed', message)] : [];
  }
  if (/^0x0{40}$/.test(payout)) {
    return [
      error(
        'payout_address',
        'zero_address',
        'payout_address must not be the zero address: funds sent there are lost',
      ),
    ];
  }
  if (!isAddress(payout) || payout !== checksumAddress(payout)) {
    return [
      error(
        'payout_address',
        'checksum',
        'payout_address must be written in its EIP-55 mixed-case form, exactly as your wallet shows it: the checksum guards the one address your funds will be sent to against a mistyped character',
      ),
    ];
  }
  return [];
}

/**
 * Solana methods need the merchant's wallet (contract §24), as TRON methods need their key: the same
 * rules (`required`, `not_allowed`), and one check of the address for every surface (solana-address.ts).
 */
function solanaErrors(used: boolean, address: string | null, given: boolean): FieldError[] {
  if (address === null) {
    return used
      ? [
          error(
            'solana_address',
            'required',
            'Solana payment methods need solana_address, the wallet whose token accounts receive their payments',
          ),
        ]
      : [];
  }
  if (!used) {
    return given
      ? [
          error(
            'solana_address',
            'not_allowed',
            'solana_address is only for projects that accept a Solana method',
          ),
        ]
      : [];
  }
  const problem = walletAddressProblem(address);
  return problem ? [error('solana_address', problem.rule, problem.message)] : [];
}

/**
 * A family's methods need its account-level xpub (m/44'/60'/0', m/44'/195'/0'); no method, no key.
 * `allowed`: the key may be there without being needed (EVM methods collected through forwarders).
 */
function keyErrors(
  family: XpubFamily,
  used: boolean,
  xpub: string | null,
  given: boolean,
  allowed = used,
): FieldError[] {
  const field = `${family}_xpub`;
  if (xpub === null) {
    return used
      ? [
          error(
            field,
            'required',
            family === 'evm'
              ? 'EVM payment methods need the extended public key (evm_xpub) of the wallet that receives their payments, or a payout_address to collect them to'
              : 'TRON payment methods need the extended public key (tron_xpub) of the wallet that receives their payments',
          ),
        ]
      : [];
  }
  if (!used && !allowed) {
    if (!given) return [];
    return [
      error(
        field,
        'not_allowed',
        `${field} is only for projects that accept ${family === 'evm' ? 'an EVM' : 'a TRON'} method`,
      ),
    ];
  }
  try {
    parseXpub(xpub, FAMILY[family].coinType);
  } catch (err) {
    return [error(field, 'format', (err as Error).message)];
  }
  return [];
}
