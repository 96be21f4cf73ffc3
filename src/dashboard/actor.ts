import type { Actor, Change } from '../audit/audit.js';
import type { DashboardContext } from './context.js';

export function actor(ctx: DashboardContext): Actor {
  return { id: ctx.session.userId, email: ctx.session.email };
}

/** A change made by the signed-in user, now: what every service function that changes something takes. */
export function change(ctx: DashboardContext, now: Date): Change {
  return { actor: actor(ctx), now };
}
