import { logoPath } from '../branding/branding.js';
import { type Html, html } from '../web/html.js';

export interface ProjectBrand {
  project_name: string;
  logo_hash: string | null;
  logo_width: number | null;
  logo_height: number | null;
}

/**
 * The project's logo, or its initial in a circle: the mark beside its name at the top of the payment
 * page and the refund claim page. Decorative (alt=""): the name is written beside it.
 */
export function brandMark(p: ProjectBrand, root: string): Html {
  const initial = Array.from(p.project_name.trim())[0]?.toUpperCase() ?? '?';
  return p.logo_hash
    ? html`<img class="logo" src="${root}${logoPath(p.logo_hash)}" alt="" width="${String(p.logo_width)}" height="${String(p.logo_height)}">`
    : html`<span class="avatar" aria-hidden="true">${initial}</span>`;
}
