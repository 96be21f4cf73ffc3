import { Type } from '@sinclair/typebox';
import type { FieldError } from '../http/errors.js';
import { type Network, type NetworkRegistry, SANDBOX } from './network.js';

/**
 * Live and test never mix (contract §21, as Stripe's `livemode`). This file is the one definition:
 * every surface (the admin API, Settings, invoice creation, the payment page, the simulator, the
 * chain watchers) asks it, and nothing else decides what is test money.
 */

/**
 * A network is test when it is the sandbox or its configuration says `testnet`. A name the registry
 * does not know (a network removed since) counts as live: the safe side, where no test money pays.
 */
export function isTestNetwork(networks: NetworkRegistry, name: string): boolean {
  if (name === SANDBOX) return true;
  const network = networks.get(name);
  return network !== undefined && isTestChain(network);
}

/** The same for a chain the registry handed out (a watcher's, a collector's): its `testnet` setting. */
export const isTestChain = (network: Pick<Network, 'testnet'>): boolean => network.testnet;

/** Live when any method is on a live network: a legacy mix (see offeredNow) is live. */
export function livemodeOf(networks: NetworkRegistry, methods: readonly { network: string }[]): boolean {
  return methods.some((m) => !isTestNetwork(networks, m.network));
}

export function mixesEnvironments(
  networks: NetworkRegistry,
  methods: readonly { network: string }[],
): boolean {
  return livemodeOf(networks, methods) && methods.some((m) => isTestNetwork(networks, m.network));
}

/**
 * The methods a new invoice may offer. A project saved before the rule may still mix; its new invoices
 * offer only its live methods until its methods are saved again (which the rule then checks).
 */
export function offeredNow<M extends { network: string }>(
  networks: NetworkRegistry,
  methods: readonly M[],
): M[] {
  if (!mixesEnvironments(networks, methods)) return [...methods];
  return methods.filter((m) => !isTestNetwork(networks, m.network));
}

/**
 * May a payment on a network (`test` from isTestNetwork) reach an invoice? Test money (the sandbox, a
 * testnet) only ever reaches test invoices: not even as `unaccepted` or after close, where it would
 * show on a live invoice or make it refundable.
 */
export function mayPay(network: { test: boolean }, invoice: { livemode: boolean }): boolean {
  return !invoice.livemode || !network.test;
}

/** The field error of a set of methods that mixes live and test networks (admin API and Settings alike). */
export function mixedEnvironmentsError(
  networks: NetworkRegistry,
  methods: readonly { network: string }[],
): FieldError | undefined {
  if (!mixesEnvironments(networks, methods)) return undefined;
  const names = (test: boolean) =>
    [...new Set(methods.map((m) => m.network).filter((n) => isTestNetwork(networks, n) === test))].join(', ');
  return {
    in: 'body',
    field: 'payment_methods',
    rule: 'mixed_environments',
    message: `payment methods must be all live or all test: ${names(true)} (test) cannot be mixed with ${names(false)} (live); use a separate project for testing`,
  };
}

/** `livemode` as every API object and event body carries it (contract §21). */
export const LivemodeSchema = Type.Boolean({
  readOnly: true,
  description:
    'False for test money: the sandbox or a testnet (a test project, its invoices, refunds and collections); true for real money. Read-only: an invoice keeps it for its lifetime',
});
