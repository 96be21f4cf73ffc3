import type { Kysely, Transaction } from 'kysely';
import { audit, type Change } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { hasIdShape } from '../ids.js';
import { findProject } from '../merchants/service.js';
import { checkBrandColor } from './contrast.js';
import { LogoRefused, processLogo } from './logo.js';
import * as repo from './repository.js';

/**
 * A project's branding on the payment page: its colour and its logo. The rules live here, so the
 * operator's admin API and the merchant dashboard's Settings page share them.
 */

const notFound = () => ApiError.notFound('No project with this id');

export async function getBranding(db: Kysely<Database>, projectId: string) {
  const row = hasIdShape(projectId, 'prj') ? await repo.findBranding(db, projectId) : undefined;
  if (!row) throw notFound();
  return row;
}

/** Sets (or with null, removes) the brand colour; a colour without enough contrast is refused. */
export async function setBrandColor(
  db: Kysely<Database>,
  projectId: string,
  color: string | null,
  change: Change,
) {
  if (color !== null) {
    const check = checkBrandColor(color);
    if (!check.ok)
      throw ApiError.validation([
        { in: 'body', field: 'brand_color', rule: check.rule, message: check.message },
      ]);
  }
  await getBranding(db, projectId);
  const value = color?.toLowerCase() ?? null;
  await changed(db, projectId, change, `brand colour ${value ?? 'removed'}`, (tx) =>
    repo.setBrandColor(tx, projectId, value, change.now),
  );
  return getBranding(db, projectId);
}

/** Stores an uploaded logo, re-encoded (logo.ts); the Content-Type must say PNG and the bytes must be one. */
export async function uploadLogo(
  db: Kysely<Database>,
  projectId: string,
  upload: { contentType: string | undefined; body: Buffer },
  change: Change,
) {
  await getBranding(db, projectId);
  const type = upload.contentType?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'image/png') {
    throw refused('content_type', 'Send the logo as the raw body with Content-Type: image/png');
  }
  let logo: ReturnType<typeof processLogo>;
  try {
    logo = processLogo(upload.body);
  } catch (err) {
    if (err instanceof LogoRefused) throw refused(err.rule, err.message);
    throw err;
  }
  await changed(db, projectId, change, `logo ${logo.hash}.png`, (tx) =>
    repo.saveLogo(tx, {
      project_id: projectId,
      hash: logo.hash,
      content_type: 'image/png',
      image: logo.png,
      width: logo.width,
      height: logo.height,
      updated_at: change.now,
    }),
  );
  return getBranding(db, projectId);
}

export async function removeLogo(db: Kysely<Database>, projectId: string, change: Change) {
  await getBranding(db, projectId);
  await changed(db, projectId, change, 'logo removed', (tx) => repo.deleteLogo(tx, projectId));
  return getBranding(db, projectId);
}

/** A change of branding and its audit row, in one transaction. */
async function changed(
  db: Kysely<Database>,
  projectId: string,
  change: Change,
  what: string,
  write: (tx: Transaction<Database>) => Promise<unknown>,
) {
  await db.transaction().execute(async (tx) => {
    const project = await findProject(tx, projectId);
    await write(tx);
    await audit(tx, project.account_id, change, 'project.branding_changed', `${projectId}: ${what}`);
  });
}

/** The logo served at `/pay/logos/<hash>.png`; undefined for any other name. */
export async function logoByName(db: Kysely<Database>, name: string) {
  const hash = /^([0-9a-f]{32})\.png$/.exec(name)?.[1];
  return hash ? repo.findLogoByHash(db, hash) : undefined;
}

function refused(rule: string, message: string): ApiError {
  return ApiError.validation([{ in: 'body', field: 'body', rule, message }]);
}
