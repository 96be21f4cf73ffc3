// Paydesk dashboard: progressive enhancement only. Every action is a form the server answers; this
// script adds copy buttons, confirmation dialogs and auto-submitting selects, and nothing else.
(() => {
  // Copy buttons: data-copy names the id of the field to copy.
  for (const button of document.querySelectorAll('[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const target = document.getElementById(button.dataset.copy);
      const status = document.getElementById(`${button.dataset.copy}-status`);
      if (!target) return;
      try {
        await navigator.clipboard.writeText(target.value ?? target.textContent);
        if (status) status.textContent = 'Copied';
      } catch {
        target.select?.();
        if (status) status.textContent = 'Press Ctrl+C (⌘C) to copy';
      }
    });
  }

  // A button with data-dialog opens that <dialog> instead of going to the confirmation page.
  for (const opener of document.querySelectorAll('[data-dialog]')) {
    const dialog = document.getElementById(opener.dataset.dialog);
    if (!dialog || typeof dialog.showModal !== 'function') continue;
    opener.addEventListener('click', (event) => {
      event.preventDefault();
      if (!dialog.open) dialog.showModal();
    });
  }
  for (const cancel of document.querySelectorAll('[data-close]')) {
    cancel.addEventListener('click', () => cancel.closest('dialog')?.close());
  }

  // Buttons only needed without a script (the project select submits itself).
  for (const button of document.querySelectorAll('[data-without-script]')) button.hidden = true;

  // Selects that change the view (project, status filter) submit their form at once.
  for (const select of document.querySelectorAll('select[data-autosubmit]')) {
    select.addEventListener('change', () => select.form?.requestSubmit());
  }

  // Settings: the first deposit addresses of each xpub, shown as it is typed (the same check the
  // "Preview addresses" button makes without a script). Each key field names the network its
  // addresses are derived on and the element that shows them.
  const settings = document.querySelector('form[data-settings]');
  for (const field of settings ? settings.querySelectorAll('textarea[data-preview-network]') : []) {
    const preview = document.getElementById(`${field.id}-preview`);
    if (!preview) continue;
    let timer;
    const show = (title, items, hint) => {
      const panel = document.createElement('div');
      panel.className = 'panel';
      const h = document.createElement('h2');
      h.textContent = title;
      panel.append(h);
      if (hint) {
        const p = document.createElement('p');
        p.className = 'hint';
        p.textContent = hint;
        panel.append(p);
      }
      if (items.length) {
        const list = document.createElement('ol');
        list.start = 0;
        for (const text of items) {
          const li = document.createElement('li');
          const code = document.createElement('code');
          code.textContent = text;
          li.append(code);
          list.append(li);
        }
        panel.append(list);
      }
      preview.replaceChildren(panel);
    };
    const update = async () => {
      const xpub = field.value.trim();
      if (!xpub) return preview.replaceChildren();
      try {
        const res = await fetch('/dashboard/api/deposit-addresses/preview', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': settings.elements._csrf.value },
          body: JSON.stringify({ network: field.dataset.previewNetwork, xpub }),
        });
        const body = await res.json();
        if (body.success) {
          show(
            field.dataset.previewTitle,
            body.data.addresses.map((a) => a.address),
            'Check that your wallet lists these same receiving addresses before you save.',
          );
        } else show(`This ${field.labels[0]?.textContent ?? 'xpub'} cannot be used`, [], body.message);
      } catch {
        preview.replaceChildren();
      }
    };
    field.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(update, 400);
    });
  }
})();
