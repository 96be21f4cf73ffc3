import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { claimForm, formDone, formNotDone, isOnceToken, keepSecret } from '../users/form-results.js';
import { field } from './form.js';
import { ROOT } from './layout.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The one-time token of the form this POST sends, once claimed (see `sendOnce`). */
    formOnce: string | undefined;
  }
}

/** How long a repeated POST waits for the first one's result before it is sent to the Overview. */
const WAIT_FOR_FIRST_MS = 5_000;

/**
 * Contract §17: a form is sent once. Every dashboard form carries a one-time token (`_once`, written
 * by layout.ts beside the CSRF token). The first POST with it claims it and runs; when it redirects to
 * its result page, the token remembers that page. A POST of the same form again (a double click, the
 * back button then submit, "Resubmit form") runs nothing and is redirected to that same page. A POST
 * whose page comes back with errors gives its token back, so the corrected form can be sent.
 */
export function sendOnce(app: FastifyInstance): void {
  app.decorateRequest('formOnce', undefined);
  // After the CSRF check (guard.ts, registered first): a foreign post never claims anything.
  app.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'POST') return;
    const once = field(request.body, '_once');
    if (once === '') return;
    delete (request.body as Record<string, unknown>)._once;
    if (!isOnceToken(once)) throw expired();
    const session = request.dashboard.session;
    let claim = await claimForm(app.db, session, once, app.clock());
    if (claim.first) {
      request.formOnce = once;
      return;
    }
    // The first POST may still be running (a double click): wait for its result, as a state.
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    while (!claim.first && claim.location === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      claim = await claimForm(app.db, session, once, app.clock());
      if (claim.first) {
        // The first POST failed and gave the token back meanwhile: this one runs instead.
        request.formOnce = once;
        return;
      }
    }
    return redirect(reply, claim.first ? ROOT : (claim.location ?? ROOT));
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const once = request.formOnce;
    if (once === undefined) return payload;
    request.formOnce = undefined;
    const location = reply.getHeader('location');
    if (reply.statusCode === 303 && typeof location === 'string') {
      await formDone(app.db, request.dashboard.session, once, location);
    } else {
      await formNotDone(app.db, request.dashboard.session, once);
    }
    return payload;
  });
}

/**
 * Keeps a secret the form's action made (an API key, a signing secret, an invite link) for the result
 * page to show once: that page's URL names the form (`?form=`), and only this session can read it.
 */
export async function keepForResultPage(request: FastifyRequest, secret: string): Promise<string> {
  const once = request.formOnce;
  if (once === undefined) {
    // A form sent without its one-time token (not one of ours): nowhere to keep the secret.
    throw expired();
  }
  await keepSecret(request.server.db, request.dashboard.session, once, secret);
  return once;
}

function redirect(reply: FastifyReply, location: string) {
  return reply.redirect(location, 303);
}

function expired(): ApiError {
  return ApiError.validation([
    {
      in: 'body',
      field: '_once',
      rule: 'form_expired',
      message: 'This form has expired. Reload the page and try again.',
    },
  ]);
}
