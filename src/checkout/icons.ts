import { type Html, raw } from '../web/html.js';

// 24×24 line icons, decorative (the text beside each says the same), coloured by CSS through
// currentColor: presentation attributes only, never style="" (the page's CSP forbids it).
const icon = (name: string, body: string): Html =>
  raw(
    `<svg class="icon icon-${name}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`,
  );

export const icons = {
  clock: icon('clock', '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>'),
  check: icon('check', '<circle cx="12" cy="12" r="9"/><path d="m8 12.5 2.5 2.5L16 9.5"/>'),
  pending: icon('pending', '<path d="M21 12a9 9 0 1 1-6.2-8.55"/><path d="M21 4v5h-5"/>'),
  cross: icon('cross', '<circle cx="12" cy="12" r="9"/><path d="m9 9 6 6m0-6-6 6"/>'),
  expired: icon(
    'expired',
    '<path d="M5 22h14M5 2h14M17 22v-4.2a2 2 0 0 0-.6-1.4L12 12l-4.4 4.4a2 2 0 0 0-.6 1.4V22M7 2v4.2a2 2 0 0 0 .6 1.4L12 12l4.4-4.4a2 2 0 0 0 .6-1.4V2"/>',
  ),
  copy: icon(
    'copy',
    '<rect x="9" y="9" width="12" height="12" rx="2"/><path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1"/>',
  ),
  copied: icon('copied', '<path d="m5 12.5 4.5 4.5L19 7.5"/>'),
  flask: icon(
    'flask',
    '<path d="M9 3h6M10 3v6.5L4.6 18.4A1.7 1.7 0 0 0 6 21h12a1.7 1.7 0 0 0 1.4-2.6L14 9.5V3"/><path d="M7.5 15h9"/>',
  ),
  lock: icon('lock', '<rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>'),
  wallet: icon(
    'wallet',
    '<path d="M19 7V5a2 2 0 0 0-2-2H5a2 2 0 0 0 0 4h14a1 1 0 0 1 1 1v4h-3a2 2 0 0 0 0 4h3a1 1 0 0 0 1-1v-2.5M3 5v14a2 2 0 0 0 2 2h14a1 1 0 0 0 1-1v-4"/>',
  ),
  search: icon('search', '<circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/>'),
};
