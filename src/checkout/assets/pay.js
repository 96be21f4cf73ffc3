// Paydesk payment page: live updates, countdown, copy button, simulate without reload.
// The server renders every view; this script only asks whether the view changed (GET …/status with
// If-None-Match every 2 s) and, when it did, swaps in the server's new <main>. It never builds a view.
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

  async function refresh() {
    const res = await fetch(root.dataset.pageUrl, { cache: 'no-store' });
    if (res.ok) swap(await res.text());
  }

  // Replaces <main> with the server's rendering; keeps focus and tells screen readers what changed.
  function swap(markup) {
    const doc = new DOMParser().parseFromString(markup, 'text/html');
    const next = doc.getElementById('checkout');
    if (!next) return;
    const changed = next.dataset.state !== root.dataset.state;
    const hadFocus = root.contains(document.activeElement);
    root.replaceWith(next);
    root = next;
    document.title = doc.title;
    messages = readMessages(doc);
    skew = Date.parse(root.dataset.serverNow) - Date.now() || skew;
    enhance();
    schedule(POLL_MS); // a view that is final stops the polling at once
    if (!changed) return;
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

  document.addEventListener('click', (event) => {
    const button = event.target.closest('[data-copy]');
    if (button) copy(button);
  });
  document.addEventListener('submit', (event) => {
    const form = event.target.closest('[data-simulate]');
    if (!form) return;
    event.preventDefault();
    simulate(form);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) schedule(0);
    else if (!isTerminal()) poll();
  });

  enhance();
  setInterval(tick, 1000);
  schedule(POLL_MS);
})();
