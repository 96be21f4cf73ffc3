import type { FastifyRequest } from 'fastify';
import type { ProjectRow } from '../merchants/merchant.table.js';
import type { Session } from '../users/sessions.js';

/** Who is signed in and which of their account's projects they are looking at. */
export interface DashboardContext {
  session: Session;
  projects: ProjectRow[];
  project: ProjectRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    dashboard: DashboardContext;
  }
}

export function context(request: FastifyRequest): DashboardContext {
  return request.dashboard;
}
