import type { Selectable } from 'kysely';

/** A project's logo as we re-encoded it (migration 0007): never the bytes that were uploaded. */
export interface ProjectLogoTable {
  project_id: string;
  /** The content hash, also the logo's URL (`/pay/logos/<hash>.png`). */
  hash: string;
  content_type: 'image/png';
  image: Buffer;
  width: number;
  height: number;
  updated_at: Date;
}

declare module '../db/schema.js' {
  interface Database {
    project_logos: ProjectLogoTable;
  }
}

// The brand colour is a column of projects (migration 0007), owned by this feature: the merchants
// module never reads it, so it is declared here rather than in merchant.table.ts.
declare module '../merchants/merchant.table.js' {
  interface ProjectTable {
    /**
     * `#rrggbb`, lower case, checked for contrast (contrast.ts); null: the page's own accent. Optional
     * here only because the merchants module creates projects without knowing of it (default null).
     */
    brand_color?: string | null;
  }
}

export type ProjectLogoRow = Selectable<ProjectLogoTable>;
