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

  // Selects that change the view (project, status filter) submit their form at once.
  for (const select of document.querySelectorAll('select[data-autosubmit]')) {
    select.addEventListener('change', () => select.form?.requestSubmit());
  }
})();
