import type { Collection } from '../../collections/collection.js';
import type { CollectorTable } from '../../collections/collection.table.js';
import { formatGwei } from '../../collections/fees.js';
import type { Waiting } from '../../collections/overview.js';
import { COLLECTOR_KEY_VARIABLE, collectorKeyVariable } from '../../forwarders/collector-key.js';
import type { NetworkRegistry } from '../../networks/network.js';
import { rpcVariable } from '../../networks/rpc-settings.js';
import { type Html, html } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { badge, csrf, errorSummary, type PageMessage, ROOT, shell, time } from '../layout.js';

/** One EVM network the project collects on: what waits in forwarders, and whether it can be collected. */
export interface NetworkBalance {
  network: string;
  /** Per token: the confirmed, uncollected total and how many deposits hold it. */
  tokens: ReadonlyArray<{ token: string; amount: string; deposits: number }>;
  /** Per token: deposits under the minimum, waiting for a larger deposit of their forwarder. */
  dust: ReadonlyArray<{ token: string; amount: string; deposits: number }>;
  /** Why collection cannot happen here, in words for the owner; undefined when it can. */
  off: string | undefined;
}

/** Why collection is off on a network, and what to do (contract §16): key, RPC, factory, gas. */
export function offReason(
  networks: NetworkRegistry,
  network: string,
  hasKey: boolean,
  state: CollectorTable | undefined,
): string | undefined {
  const n = networks.get(network);
  if (!n?.rpcUrl)
    return `${networks.label(network)} is not watched: the operator sets ${rpcVariable(network)}.`;
  if (!hasKey) {
    return `Collection is off on ${networks.label(network)}: the operator sets a collector key (${COLLECTOR_KEY_VARIABLE} or ${collectorKeyVariable(network)}) of an account that holds only gas money.`;
  }
  if (state?.state === 'no_factory') {
    return `The forwarder factory is not deployed on ${networks.label(network)}: the operator runs npm run factory -- deploy --network ${network}.`;
  }
  if (state?.state === 'no_gas') {
    return `The collector ${state.address} has no gas on ${networks.label(network)}: send it some of the network's native coin. Waiting collections go out once it has.`;
  }
  if (state?.state === 'unreachable')
    return `${networks.label(network)}'s node does not answer the collector; collections wait.`;
  return undefined;
}

export function collectionsPage(
  ctx: DashboardContext,
  networks: NetworkRegistry,
  data: {
    payout: string | null;
    minDeposit: string;
    balances: NetworkBalance[];
    collections: ReadonlyArray<Collection & { waiting?: Waiting | undefined }>;
  },
  opts: { notice?: string | undefined; errors?: readonly PageMessage[]; extra?: Html } = {},
): string {
  const owner = ctx.session.role === 'owner';
  return shell(
    ctx,
    'Collections',
    'Collections',
    html`<h1>Collections</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${errorSummary(opts.errors ?? [])}
${
  data.payout
    ? html`<p class="muted">Payments on EVM networks arrive at forwarders: addresses that can only ever send to the payout address <code>${data.payout}</code>. A collection moves up to 100 of them in one transaction; Paydesk starts one by itself at a threshold or after 24 hours.</p>`
    : html`<p class="muted">This project has no payout address: its EVM payments go straight to its own wallet and need no collection.${owner ? html` Set one in <a href="${ROOT}/settings">Settings</a> to collect them in one transaction instead.` : ''}</p>`
}
${data.balances.map((b) => balancePanel(ctx, networks, b, owner, data.minDeposit))}
${opts.extra ?? ''}
<section class="panel" aria-labelledby="history" tabindex="0"><h2 id="history">History</h2><table>
<thead><tr><th scope="col">Network</th><th scope="col">Status</th><th scope="col" class="num">Deposits</th><th scope="col">Amounts</th><th scope="col">Transaction</th><th scope="col">Created</th><th scope="col">Confirmed</th></tr></thead>
<tbody>${
      data.collections.length
        ? data.collections.map(
            (c) =>
              html`<tr><td>${networks.label(c.network)}</td><td>${badge(c.status)}${waitingNote(c.waiting)}</td><td class="num">${String(c.deposits)}</td><td>${amounts(c.amounts)}</td><td>${txCell(networks, c)}</td><td>${time(new Date(c.created_at))}</td><td>${time(c.confirmed_at ? new Date(c.confirmed_at) : null)}</td></tr>`,
          )
        : html`<tr><td colspan="7" class="muted">No collections yet.</td></tr>`
    }</tbody></table></section>`,
  );
}

function balancePanel(
  ctx: DashboardContext,
  networks: NetworkRegistry,
  b: NetworkBalance,
  owner: boolean,
  minDeposit: string,
): Html {
  const id = `net-${b.network}`;
  const waiting = b.tokens.length > 0;
  return html`<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${networks.label(b.network)}</h2>
${b.off ? html`<p class="notice notice-warning" role="status">${b.off}</p>` : ''}
${
  waiting
    ? html`<p>Collectable: ${b.tokens.map((t) => `${t.amount} ${t.token} (${t.deposits} ${t.deposits === 1 ? 'deposit' : 'deposits'})`).join(', ')}</p>`
    : html`<p class="muted">Nothing to collect.</p>`
}
${
  b.dust.length > 0
    ? html`<p class="muted">Below ${minDeposit} USD, collected only together with a larger deposit to the same address: ${b.dust.map((t) => `${t.amount} ${t.token} (${t.deposits} ${t.deposits === 1 ? 'deposit' : 'deposits'})`).join(', ')}</p>`
    : ''
}
${
  owner && waiting && !b.off
    ? html`<form method="post" action="${ROOT}/collections">${csrf(ctx)}<input type="hidden" name="network" value="${b.network}"><button type="submit" class="button button-primary">Collect now</button></form>`
    : ''
}
</section>`;
}

const amounts = (a: Record<string, string>) =>
  Object.entries(a)
    .map(([token, amount]) => `${amount} ${token}`)
    .join(', ') || '—';

function txCell(networks: NetworkRegistry, c: Collection): Html {
  if (!c.tx_hash) return html`<span class="muted">not sent yet</span>`;
  const url = networks.transactionUrl(c.network, c.tx_hash);
  const short = `${c.tx_hash.slice(0, 10)}…`;
  return url
    ? html`<a href="${url}" rel="noopener noreferrer"><code>${short}</code></a>`
    : html`<code>${short}</code>`;
}

const WAITING: Record<Waiting['reason'], string> = {
  no_key: 'waiting: this network has no collector key',
  no_gas: 'waiting: the collector has no gas',
  rejected: 'waiting: the node refused its transaction; tried again each round',
  unreachable: "waiting: the network's node does not answer",
  fee_cap: 'waiting at the fee cap',
};

/** Why a pending collection waits; at the fee cap, the fee it needs against the cap (contract §22). */
function waitingNote(w: Waiting | undefined): Html | string {
  if (!w) return '';
  if (w.reason !== 'fee_cap') return html`<br><span class="muted">${WAITING[w.reason]}</span>`;
  const needed = formatGwei(w.feeNeeded ?? 0n);
  const cap = formatGwei(w.feeCap ?? 0n);
  return html`<br><span class="muted">Waiting at the fee cap: it needs ${needed} gwei per gas, the cap (PAYDESK_COLLECT_MAX_FEE_GWEI) is ${cap} gwei. It is sent once the network's fees fall, or the operator raises the cap.</span>`;
}
