import type { Actor } from '../users/audit.js';
import type { DashboardContext } from './context.js';

export function actor(ctx: DashboardContext): Actor {
  return { id: ctx.session.userId, email: ctx.session.email };
}
