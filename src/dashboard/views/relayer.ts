import { formatEther } from 'viem';
import type { RelayerStatus } from '../../gasless/wallet.js';
import { type Html, html } from '../../web/html.js';

const STATE_TEXT = {
  ok: 'Funded',
  low: 'Running low: top it up',
  empty: 'Out of gas: the wallet button is off',
  unknown: 'The node did not answer',
} as const;

/**
 * Gasless payments (contract §23): the relayer of each network, its native balance and how many
 * signed transfers it still pays for; a warning before it runs dry.
 */
export function relayerPanel(statuses: readonly RelayerStatus[]): Html {
  if (statuses.length === 0) return html``;
  const warn = statuses.filter((s) => s.state === 'low' || s.state === 'empty');
  return html`<section class="panel" aria-labelledby="relayer"><h2 id="relayer">Gasless payments: relayer</h2>
<p class="muted">Payers who sign a USDC transfer in their browser wallet pay no gas: the relayer sends it, from an account that holds only native coin.</p>
${warn.length > 0 ? html`<p class="notice notice-warning" role="status">Relayer gas is low on ${warn.map((s) => s.label).join(', ')}: send native coin to the relayer address.</p>` : ''}
<table><thead><tr><th scope="col">Network</th><th scope="col">Relayer</th><th scope="col" class="num">Balance</th><th scope="col" class="num">Payments left</th><th scope="col">Status</th></tr></thead>
<tbody>${statuses.map(
    (s) =>
      html`<tr><td>${s.label}</td><td><code>${s.relayer}</code></td><td class="num">${s.balance === undefined ? '—' : formatEther(s.balance)}</td><td class="num">${s.paymentsLeft === undefined ? '—' : s.paymentsLeft.toString()}</td><td>${STATE_TEXT[s.state]}</td></tr>`,
  )}</tbody></table></section>`;
}
