import { Type } from '@sinclair/typebox';
import { nullable } from '../http/schemas.js';
import { textColorOn } from './contrast.js';
import type { BrandingRow } from './repository.js';

export const BrandingSchema = Type.Object(
  {
    project_id: Type.String(),
    brand_color: nullable(
      Type.String({
        description: "The fill of the payment page's main buttons, #rrggbb; null: Paydesk's own",
        examples: ['#635bff'],
      }),
    ),
    brand_text_color: nullable(
      Type.String({
        description: 'The text colour derived for brand_color (black or white, at least 4.5:1)',
        examples: ['#ffffff'],
      }),
    ),
    logo_url: nullable(
      Type.String({
        description: 'Where the payment page loads the logo from (our origin, a URL per image); null: none',
      }),
    ),
    logo_width: nullable(Type.Integer()),
    logo_height: nullable(Type.Integer()),
  },
  { $id: 'Branding', title: 'Branding' },
);

export type Branding = ReturnType<typeof toBranding>;

/** The path of a logo under the payment page (`/pay/…`): its content hash, so it is cached for good. */
export const logoPath = (hash: string) => `logos/${hash}.png`;

export function toBranding(row: BrandingRow, publicBaseUrl: string) {
  return {
    project_id: row.project_id,
    brand_color: row.brand_color ?? null,
    brand_text_color: row.brand_color ? textColorOn(row.brand_color) : null,
    logo_url: row.logo_hash ? `${publicBaseUrl}/pay/${logoPath(row.logo_hash)}` : null,
    logo_width: row.logo_width,
    logo_height: row.logo_height,
  };
}
