import type { PaidDay } from '../../invoices/stats.js';
import { formatMoney, sum } from '../../money/money.js';
import { methodLabel } from '../../networks/methods.js';
import type { NetworkRegistry } from '../../networks/network.js';
import { type Html, html, raw } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { ROOT, shell } from '../layout.js';

export function overviewPage(
  ctx: DashboardContext,
  networks: NetworkRegistry,
  statuses: Array<{ status: string; count: bigint }>,
  days: PaidDay[],
): string {
  const currency = ctx.project.currency;
  const methods = ctx.project.payment_methods.map((m) => methodLabel(networks, m)).join(', ');
  const total = formatMoney(sum(days.map((d) => d.volume)));
  return shell(
    ctx,
    'Overview',
    'Overview',
    html`<h1>Overview</h1>
<p class="muted">${ctx.project.name} · ${currency} · ${methods}</p>
<section aria-labelledby="by-status"><h2 id="by-status">Invoices by status</h2>
<dl class="stats">${statuses.map(
      (s) =>
        html`<div><dt>${s.status}</dt><dd><a href="${ROOT}/invoices?status=${s.status}">${s.count.toString()}</a></dd></div>`,
    )}</dl></section>
<section class="panel" aria-labelledby="volume"><h2 id="volume">Paid volume per day, last 30 days</h2>
<p class="muted">${total} ${currency} in total</p>
${chart(days, currency)}
<details><summary>The same numbers as a table</summary>
<table><caption class="visually-hidden">Paid volume per day</caption>
<thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="num">Invoices paid</th><th scope="col" class="num">Volume (${currency})</th></tr></thead>
<tbody>${days.map((d) => html`<tr><td>${d.day}</td><td class="num">${d.count}</td><td class="num">${formatMoney(d.volume)}</td></tr>`)}</tbody>
</table></details>
</section>`,
  );
}

const W = 720;
const H = 160;
const PAD = 24;

/** Bars drawn from integers only (amounts scaled with bigint): the picture of the table beside it. */
function chart(days: PaidDay[], currency: string): Html {
  const max = days.reduce<bigint>((m, d) => (d.volume > m ? d.volume : m), 0n);
  const slot = Math.floor((W - PAD) / days.length);
  const bars = days.map((d, i) => {
    const h = max === 0n ? 0 : Number((d.volume * BigInt(H - PAD)) / max);
    const x = PAD + i * slot;
    return `<rect x="${x + 2}" y="${H - PAD - h}" width="${slot - 4}" height="${h}" rx="2" fill="currentColor"><title>${d.day}: ${formatMoney(d.volume)} ${currency}</title></rect>`;
  });
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return raw(
    `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Bar chart of paid volume per day from ${first} to ${last}; the table below has the numbers" xmlns="http://www.w3.org/2000/svg">` +
      `<line class="axis" x1="${PAD}" y1="${H - PAD}" x2="${W}" y2="${H - PAD}"/>${bars.join('')}` +
      `<text x="${PAD}" y="${H - 6}">${first}</text><text x="${W}" y="${H - 6}" text-anchor="end">${last}</text></svg>`,
  );
}
