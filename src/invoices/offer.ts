import { ApiError } from '../http/errors.js';
import type { Principal } from '../merchants/authenticate.js';
import type { PaymentMethod } from '../networks/methods.js';
import type { NetworkRegistry } from '../networks/network.js';
import type { Watching } from '../watch/watched.js';

/** How soon a create refused for want of a watched network is worth trying again. */
const RETRY_AFTER_SECONDS = 30;

/**
 * The methods a new invoice may offer: only those whose network Paydesk watches (contract §21). A
 * method on a network nobody reads would hand the payer an address for a payment never seen. With
 * none left, the create answers 503 with Retry-After (as for a missing rate, §19): the project is
 * fine, the operator's side is not, and the message names the networks and why.
 */
export function watchedMethods(methods: readonly PaymentMethod[], watching: Watching): PaymentMethod[] {
  const kept = methods.filter((m) => watching.unwatched(m.network) === null);
  if (kept.length > 0) return kept;
  const why = [...new Set(methods.map((m) => m.network))]
    .map((network) => `${network} (${watching.unwatched(network)})`)
    .join('; ');
  throw new ApiError(
    'INTERNAL_SERVER_ERROR',
    `No payment method of this project can be offered: Paydesk does not watch ${why}; retry once it does`,
    { statusCode: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
  );
}

/**
 * Whether a new invoice's EVM address is its forwarder (contract §16), and which of its methods it
 * keeps (contract §21: forwarders only where the factory is). One EVM address serves every EVM
 * network of an invoice, so where any of its EVM networks lacks the factory, a project with an
 * `evm_xpub` gets an xpub address for all of them (never a forwarder where it cannot be deployed);
 * a project without one keeps only the EVM networks that have the factory.
 */
export function evmDeposit(
  methods: readonly PaymentMethod[],
  principal: Pick<Principal, 'payoutAddress' | 'hasEvmXpub'>,
  networks: NetworkRegistry,
  watching: Watching,
): { methods: PaymentMethod[]; forwarder: boolean } {
  if (!principal.payoutAddress) return { methods: [...methods], forwarder: false };
  const lacking = (m: PaymentMethod) =>
    networks.get(m.network)?.family === 'evm' && watching.noForwarders(m.network) !== null;
  if (!methods.some(lacking)) return { methods: [...methods], forwarder: true };
  if (principal.hasEvmXpub) return { methods: [...methods], forwarder: false };
  const kept = methods.filter((m) => !lacking(m));
  if (kept.length > 0) return { methods: kept, forwarder: true };
  const why = [...new Set(methods.map((m) => m.network))]
    .map((network) => `${network} (${watching.noForwarders(network)})`)
    .join('; ');
  throw new ApiError(
    'INTERNAL_SERVER_ERROR',
    `No payment method of this project can be offered: its deposits need forwarders, and there are none on ${why}; set an EVM xpub, or retry once the factory is deployed`,
    { statusCode: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
  );
}
