// Paydesk till (src/pos). The rules stay on the server: the totals come from /quote, the sale's state
// from the payment page's public /status. The script only fills the form and shows what it is told.
(() => {
  const form = document.querySelector('[data-till]');
  if (form) till(form);
  const sale = document.querySelector('[data-sale]');
  if (sale) watch(sale);

  function till(form) {
    const amount = form.querySelector('#amount');
    const decimals = Number(form.dataset.decimals);
    const keypad = form.querySelector('[data-keypad]');
    let digits = '';
    keypad.hidden = false;
    for (const label of form.querySelectorAll('[data-noscript]')) label.hidden = true;
    const show = () => {
      const n = digits.replace(/^0+/, '').padStart(decimals + 1, '0');
      amount.value = decimals > 0 ? `${n.slice(0, -decimals)}.${n.slice(-decimals)}` : n;
      if (digits === '') amount.value = '';
      quote();
    };
    keypad.addEventListener('click', (e) => {
      const key = e.target.closest('[data-key]')?.dataset.key;
      if (!key) return;
      if (key === 'clear') digits = '';
      else if (key === 'back') digits = digits.slice(0, -1);
      else if (digits.length < 12) digits = `${digits}${key}`.replace(/^0+/, '');
      show();
    });
    amount.addEventListener('input', () => {
      digits = amount.value.replace(/[^0-9]/g, '');
      quote();
    });
    for (const add of form.querySelectorAll('[data-add]')) {
      add.hidden = false;
      add.addEventListener('click', () => {
        const qty = form.querySelector(`#qty-${add.dataset.add}`);
        qty.value = String(Math.min(999, Number(qty.value || 0) + 1));
        quote();
      });
    }
    for (const qty of form.querySelectorAll('.item-qty')) qty.addEventListener('input', quote);
    let asked = 0;
    async function quote() {
      const mine = ++asked;
      try {
        const res = await fetch(form.dataset.quoteUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(new FormData(form)),
          cache: 'no-store',
        });
        if (!res.ok || mine !== asked) return;
        const totals = (await res.json()).data;
        for (const dd of form.querySelectorAll('[data-total]')) dd.textContent = totals[dd.dataset.total];
      } catch {
        // Offline for a moment: the server prices the sale again on "Charge".
      }
    }
  }

  function watch(sale) {
    if (sale.dataset.state !== 'waiting') return;
    const view = (name) => {
      for (const s of sale.querySelectorAll('[data-view]')) s.hidden = s.dataset.view !== name;
      sale.dataset.state = name;
      sale.querySelector(`[data-view="${name}"]`).focus();
    };
    async function poll() {
      try {
        const res = await fetch(sale.dataset.statusUrl, {
          cache: 'no-store',
          headers: { accept: 'application/json' },
        });
        if (res.ok) {
          const status = (await res.json()).data.status;
          if (status === 'paid') return view('paid');
          if (status === 'expired' || status === 'failed') return view('unpaid');
        }
      } catch {
        // Try again at the next tick.
      }
      setTimeout(poll, 1000);
    }
    setTimeout(poll, 1000);
  }
})();
