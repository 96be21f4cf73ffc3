import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ProjectLogoTable } from './branding.table.js';

type Db = Kysely<Database>;

/** The project's branding: undefined when there is no such project. */
export function findBranding(db: Db, projectId: string) {
  return db
    .selectFrom('projects as p')
    .leftJoin('project_logos as l', 'l.project_id', 'p.id')
    .select([
      'p.id as project_id',
      'p.brand_color',
      'l.hash as logo_hash',
      'l.width as logo_width',
      'l.height as logo_height',
    ])
    .where('p.id', '=', projectId)
    .executeTakeFirst();
}

export type BrandingRow = NonNullable<Awaited<ReturnType<typeof findBranding>>>;

export async function setBrandColor(db: Db, projectId: string, color: string | null, now: Date) {
  const result = await db
    .updateTable('projects')
    .set({ brand_color: color, updated_at: now })
    .where('id', '=', projectId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** One logo per project: a new upload replaces the old one (and its URL). */
export function saveLogo(db: Db, row: ProjectLogoTable) {
  return db
    .insertInto('project_logos')
    .values(row)
    .onConflict((oc) =>
      oc.column('project_id').doUpdateSet({
        hash: row.hash,
        content_type: row.content_type,
        image: row.image,
        width: row.width,
        height: row.height,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export function deleteLogo(db: Db, projectId: string) {
  return db.deleteFrom('project_logos').where('project_id', '=', projectId).execute();
}

/** A logo by its content hash (its URL): any project's row with that hash holds the same bytes. */
export function findLogoByHash(db: Db, hash: string) {
  return db
    .selectFrom('project_logos')
    .select(['image', 'content_type', 'hash'])
    .where('hash', '=', hash)
    .limit(1)
    .executeTakeFirst();
}
