// Paydesk payment page: live updates, countdown, copy button, the choice of payment method and
// simulate without reload. The server renders every view; this script only asks whether the view
// changed (GET …/status with If-None-Match every 2 s) and, when it did, swaps in the server's new
// <main>; a method chosen under "Pay with" is the page's URL with ?method=, loaded the same way. It
// never builds a view.
(() => {
  const POLL_MS = 2000;
  const ERROR_BACKOFF_MS = 5000;
  let root = document.getElementById('checkout');
  if (!root) return;
  // The page's language: messages come from a JSON data block the server wrote (no inline script).
  let messages = readMessages(document);
  const say = (key, vars = {}) =>
    (messages[key] ?? '').replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? ''));

  function readMessages(doc) {
    try {
      return JSON.parse(doc.getElementById('pay-messages')?.textContent ?? '{}');
    } catch {
      return {};
    }
  }

  // Server time minus browser time, so a payer's wrong clock does not skew the countdown.
  let skew = Date.parse(root.dataset.serverNow) - Date.now() || 0;
  let timer;
  let inFlight = false;
  let expiredPolled = false;

  const isTerminal = () => root.dataset.terminal === 'true';

  function schedule(ms) {
    clearTimeout(timer);
    timer = undefined;
    if (isTerminal() || document.hidden) return;
    timer = setTimeout(poll, ms);
  }

  async function poll() {
    if (inFlight) return;
    inFlight = true;
    let next = POLL_MS;
    try {
      const res = await fetch(root.dataset.statusUrl, {
        headers: { 'If-None-Match': root.dataset.etag, Accept: 'application/json' },
        cache: 'no-store',
      });
      if (res.status === 200 && res.headers.get('ETag') !== root.dataset.etag) await refresh();
      else if (res.status === 429) next = 1000 * (Number(res.headers.get('Retry-After')) || 10);
      else if (res.status !== 200 && res.status !== 304) next = ERROR_BACKOFF_MS;
    } catch {
      next = ERROR_BACKOFF_MS;
    } finally {
      inFlight = false;
    }
    schedule(next);
  }

  // Every load of the page (a live update, a method chosen) takes a ticket, and only the latest is
  // swapped in: an update that set off before the payer chose another method never undoes the choice.
  let tickets = 0;
  async function load(url) {
    const ticket = ++tickets;
    const res = await fetch(url, { cache: 'no-store' });
    const markup = res.ok ? await res.text() : undefined;
    if (ticket !== tickets) return true;
    if (markup === undefined) return false;
    swap(markup);
    return true;
  }

  async function refresh() {
    await load(root.dataset.pageUrl);
  }

  // `?method=tron:USDT&lang=en`, as the server writes the page's URLs (layout.ts pageQuery).
  const query = (pairs) =>
    `?${[...pairs].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%3A/g, ':')}`).join('&')}`;

  // "Pay with": the form's GET URL is the chosen method's page. It becomes the address bar's URL
  // (replaced, not pushed: choosing is not a navigation), so a reload or a shared link keeps it, and
  // the page's URL for live updates, so they keep it too. Should the load fail, the form is sent.
  async function choose(form) {
    const url = new URL(form.action);
    url.search = query(new FormData(form));
    root.dataset.pageUrl = url.href;
    history.replaceState(history.state, '', url.href);
    const method = url.searchParams.get('method');
    for (const a of document.querySelectorAll('.languages a[hreflang]')) {
      a.setAttribute(
        'href',
        query([
          ['method', method],
          ['lang', a.hreflang],
        ]),
      );
    }
    try {
      if (!(await load(url.href))) form.submit();
    } catch {
      form.submit();
    }
  }

  // Replaces <main> with the server's rendering; keeps focus and tells screen readers what changed.
  function swap(markup) {
    const doc = new DOMParser().parseFromString(markup, 'text/html');
    const next = doc.getElementById('checkout');
    if (!next) return;
    const changed = next.dataset.state !== root.dataset.state;
    const hadFocus = root.contains(document.activeElement);
    const focusedId = hadFocus ? document.activeElement.id : '';
    root.replaceWith(next);
    root = next;
    document.title = doc.title;
    messages = readMessages(doc);
    skew = Date.parse(root.dataset.serverNow) - Date.now() || skew;
    enhance();
    schedule(POLL_MS); // a view that is final stops the polling at once
    if (!changed) {
      // Same view, new details (a method chosen with the arrow keys): focus stays where it was.
      if (focusedId) document.getElementById(focusedId)?.focus();
      return;
    }
    const heading = document.getElementById('status-heading');
    const announcer = document.getElementById('announcer');
    // With a way back to the shop, say that the page is about to leave (the countdown itself is not
    // a live region: it would speak every second).
    const leaving = root.querySelector('[data-redirect]:not([hidden]) [data-redirect-text]');
    if (announcer && heading) {
      announcer.textContent = leaving
        ? `${heading.textContent}. ${leaving.textContent}`
        : heading.textContent;
    }
    if (hadFocus && heading) heading.focus();
  }

  // Progressive enhancement of freshly rendered markup: copy buttons exist without JS but are hidden.
  function enhance() {
    for (const b of root.querySelectorAll('[data-copy]')) b.hidden = false;
    // With the script a radio shows its method at once: the no-script "Show" button is not needed.
    for (const b of root.querySelectorAll('[data-methods-submit]')) b.hidden = true;
    expiredPolled = false;
    startRedirect();
    tick();
  }

  // The paid view's way back to the shop: after a few seconds, unless the payer says "stay".
  let redirectTimer;
  function startRedirect() {
    clearInterval(redirectTimer);
    const box = root.querySelector('[data-redirect]');
    const link = root.querySelector('[data-return]');
    if (!box || !link) return;
    let left = Number(box.dataset.seconds) || 5;
    const text = box.querySelector('[data-redirect-text]');
    const show = () => {
      text.textContent = say('redirecting', { seconds: left });
    };
    box.hidden = false;
    show();
    redirectTimer = setInterval(() => {
      left -= 1;
      if (left > 0) return show();
      clearInterval(redirectTimer);
      window.location.assign(link.href);
    }, 1000);
    box.querySelector('[data-redirect-stop]').addEventListener('click', () => {
      clearInterval(redirectTimer);
      box.replaceChildren(Object.assign(document.createElement('p'), { textContent: say('stayed') }));
      box.setAttribute('role', 'status');
      link.focus();
    });
  }

  const two = (n) => String(n).padStart(2, '0');
  // Same format as the server's formatRemaining (src/checkout/format.ts), days in the page's language.
  function formatRemaining(ms) {
    const total = Math.max(0, Math.ceil(ms / 1000));
    const d = Math.floor(total / 86400);
    const h = Math.floor((total % 86400) / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    if (d > 0) return `${say('days', { days: d }) || `${d}d`} ${two(h)}:${two(m)}:${two(s)}`;
    if (h > 0) return `${two(h)}:${two(m)}:${two(s)}`;
    return `${two(m)}:${two(s)}`;
  }

  function tick() {
    const el = root.querySelector('[data-countdown]');
    if (!el) return;
    const left = Date.parse(el.getAttribute('datetime')) - (Date.now() + skew);
    el.textContent = formatRemaining(left);
    el.parentElement.classList.toggle('is-urgent', left < 5 * 60 * 1000);
    // At the deadline, ask at once rather than at the next poll.
    if (left <= 0 && !expiredPolled) {
      expiredPolled = true;
      poll();
    }
  }

  async function copy(button) {
    const source = document.getElementById(button.dataset.copy);
    const status = root.querySelector('[data-copy-status]');
    // The amount is shown in the payer's locale ("6,00"); wallets want the plain decimal ("6.00").
    const text = button.dataset.copyValue ?? source.textContent.trim();
    let done = false;
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch {
      // No Clipboard API (plain http other than localhost): select the text and copy it the old way.
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      done = document.execCommand('copy');
    }
    if (status) status.textContent = done ? say('copied') : say('copyFallback');
    button.classList.toggle('is-copied', done);
    setTimeout(() => {
      button.classList.remove('is-copied');
      if (status) status.textContent = '';
    }, 4000);
  }

  // Simulate without a reload: post the form, follow the 303 to the page, swap in what it renders.
  async function simulate(form) {
    const button = form.querySelector('button');
    button.disabled = true;
    button.textContent = say('processing');
    try {
      const res = await fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      if (!res.ok) throw new Error(String(res.status));
      swap(await res.text());
    } catch {
      form.submit(); // let the browser show the server's answer
    }
  }

  // "Pay from your browser wallet" (contract §23): an EIP-1193 wallet, found by EIP-6963 discovery
  // or as window.ethereum, signs the EIP-712 TransferWithAuthorization the server described in the
  // section's data attributes; the signature goes to …/authorizations, which checks and submits it.
  let announced = [];
  window.addEventListener('eip6963:announceProvider', (event) => {
    if (event.detail?.provider) announced.push(event.detail.provider);
  });
  const findWallet = () => {
    announced = [];
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    return announced[0] ?? window.ethereum;
  };

  function typedData(d, from) {
    return {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'TransferWithAuthorization',
      domain: {
        name: d.domainName,
        version: d.domainVersion,
        chainId: Number(d.chainId),
        verifyingContract: d.token,
      },
      message: {
        from,
        to: d.to,
        value: d.value,
        validAfter: '0',
        validBefore: d.validBefore,
        nonce: d.nonce,
      },
    };
  }

  async function payFromWallet(section) {
    const d = section.dataset;
    const button = section.querySelector('[data-wallet-pay]');
    const tell = (text) => {
      section.querySelector('[data-wallet-message]').textContent = text;
    };
    const wallet = findWallet();
    if (!wallet) return tell(say('walletNone'));
    button.disabled = true;
    try {
      const [from] = await wallet.request({ method: 'eth_requestAccounts' });
      const chainId = await wallet.request({ method: 'eth_chainId' });
      if (Number(chainId) !== Number(d.chainId))
        return tell(say('walletWrongChain', { network: d.networkLabel }));
      if (Number(d.validBefore) * 1000 <= Date.now() + skew) return tell(say('walletExpired'));
      const signature = await wallet.request({
        method: 'eth_signTypedData_v4',
        params: [from, JSON.stringify(typedData(d, from))],
      });
      const message = typedData(d, from).message;
      const res = await fetch(d.postUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ network: d.network, authorization: message, signature }),
      });
      if (res.ok) {
        tell(say('walletSent'));
        schedule(0);
        return;
      }
      const body = await res.json().catch(() => ({}));
      const rule = body?.error?.details?.errors?.[0]?.rule;
      if (rule === 'balance') tell(say('walletBalance', { network: d.networkLabel }));
      else if (rule === 'expired' || rule === 'window') tell(say('walletExpired'));
      else tell(say('walletFailed', { reason: body?.message ?? String(res.status) }));
    } catch (err) {
      // EIP-1193: 4001 is the user's refusal.
      if (err?.code === 4001) tell(say('walletRejected'));
      else tell(say('walletFailed', { reason: err?.message ?? String(err) }));
    } finally {
      button.disabled = false;
    }
  }

  document.addEventListener('click', (event) => {
    const button = event.target.closest('[data-copy]');
    if (button) copy(button);
    const pay = event.target.closest('[data-wallet-pay]');
    if (pay) payFromWallet(pay.closest('[data-wallet]'));
  });
  document.addEventListener('change', (event) => {
    const form = event.target.closest('[data-methods]');
    if (form && event.target.name === 'method') choose(form);
  });
  document.addEventListener('submit', (event) => {
    const methods = event.target.closest('[data-methods]');
    const form = event.target.closest('[data-simulate]');
    if (!form && !methods) return;
    event.preventDefault();
    if (methods) choose(methods);
    else simulate(form);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) schedule(0);
    else if (!isTerminal()) poll();
  });

  enhance();
  setInterval(tick, 1000);
  schedule(POLL_MS);
})();
