import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { listAccountProjects } from '../merchants/service.js';
import { loadSession } from '../users/sessions.js';
import type { DashboardContext } from './context.js';
import { readCookie, SESSION_COOKIE } from './cookies.js';
import { signInRequired } from './errors.js';
import { field } from './form.js';

/**
 * The signed-in part of the dashboard. Every request reads its session row (users/sessions.ts), then
 * the account's projects; every POST must come from our own pages (see checkOrigin) and carry the
 * session's CSRF token.
 */
export function guardDashboard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const session = await loadSession(app.db, readCookie(request, SESSION_COOKIE), app.clock());
    if (!session || session.needsTotp) throw signInRequired();
    const projects = await listAccountProjects(app.db, session.accountId);
    const project = projects.find((p) => p.id === session.projectId) ?? projects[0];
    if (!project)
      throw ApiError.notFound('This account has no project yet; ask your Paydesk operator to create one.');
    request.dashboard = { session, projects, project };
  });
  app.addHook('preValidation', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    checkOrigin(request, app.config.publicBaseUrl);
    const sent = request.headers['x-csrf-token'] ?? field(request.body, '_csrf');
    if (!sameToken(String(sent), request.dashboard.session.csrfToken)) {
      throw ApiError.validation([
        {
          in: 'body',
          field: '_csrf',
          rule: 'csrf',
          message: 'This form has expired or was sent from another site. Reload the page and try again.',
        },
      ]);
    }
  });
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Refuses a state change that a browser says comes from another site: Sec-Fetch-Site when sent, and
 * Origin when sent (it must be this server, by its public address or the Host it was reached at).
 * A client that sends neither still needs the CSRF token, which another site cannot read.
 */
export function checkOrigin(request: FastifyRequest, publicBaseUrl: string): void {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const own = [new URL(publicBaseUrl).origin, `${request.protocol}://${request.headers.host}`];
  // A browser that says same-origin is believed (Chrome sends `Origin: null` on form posts under some
  // referrer policies); otherwise a stated Origin must be ours.
  const foreign =
    site === 'cross-site' ||
    site === 'same-site' ||
    (site !== 'same-origin' && origin !== undefined && !own.includes(origin));
  if (foreign) {
    throw ApiError.validation([
      {
        in: 'header',
        field: 'Origin',
        rule: 'same_origin',
        message: 'Dashboard forms can only be sent from the dashboard itself.',
      },
    ]);
  }
}

export function requireOwner(ctx: DashboardContext): void {
  // A viewer is told nothing exists here: the contract's codes have no "forbidden", and NOT_FOUND is
  // what any other account's ids get too (docs/decisions.md).
  if (ctx.session.role !== 'owner') throw ApiError.notFound('No such page');
}
