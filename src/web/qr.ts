import QRCode from 'qrcode';
import { type Html, html, raw } from './html.js';

/** Scanners need a light margin of four modules around the code (ISO/IEC 18004). */
const QUIET_ZONE = 4;

/**
 * The QR code of `text` as inline SVG, drawn server-side: dark modules on a white square in every
 * colour scheme (scanners need the contrast), presentation attributes only (the page's CSP forbids
 * style attributes). Each row's runs of dark modules become one path segment each.
 */
export function qrSvg(text: string, label: string): Html {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const box = size + 2 * QUIET_ZONE;
  let path = '';
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      if (!modules.get(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && modules.get(y, x)) x++;
      path += `M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h-${x - start}z`;
    }
  }
  return html`<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${box} ${box}" role="img" aria-label="${label}" shape-rendering="crispEdges"><rect width="${box}" height="${box}" fill="#ffffff"/><path fill="#000000" d="${raw(path)}"/></svg>`;
}
