import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { sendError } from './envelope.js';
import { sendApiError } from './error-handler.js';
import { ApiError } from './errors.js';
import { redactCapabilities } from './log-redaction.js';

export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every (method, path) the app serves, as registered: the app's own route table. */
    routeTable: readonly RouteEntry[];
    /** The NOT_FOUND message of the route a path would reach, from its path id (see PathId). */
    idNotFoundMessage(method: string, path: string): string | undefined;
  }
}

interface ParamsSchema {
  properties?: Record<string, { 'x-not-found'?: string }>;
}

/**
 * Fastify answers 404 for a known path with the wrong method. We keep a shadow router of every
 * registered (method, path) so the not-found handler can tell the two apart and answer 405 with the
 * `Allow` header the contract asks for. The same registrations make the app's route table.
 */
export function registerRouteFallbacks(app: FastifyInstance): void {
  const shadow = FindMyWay();
  const methods = new Set<HTTPMethod>();
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const list = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethod[];
    const params = (route.schema?.params as ParamsSchema | undefined)?.properties ?? {};
    const notFound = Object.values(params).find((p) => p['x-not-found'])?.['x-not-found'];
    for (const m of list) {
      methods.add(m);
      shadow.on(m, route.url, () => {}, { notFound });
      table.push({ method: m, url: route.url });
    }
  });
  app.decorate('idNotFoundMessage', (method: string, path: string) => {
    // A segment the router could not decode stands for an id that cannot exist: any placeholder finds
    // the route it was aimed at.
    const decodable = path
      .split('/')
      .map((segment) => (safeDecode(segment) === undefined ? 'x' : segment))
      .join('/');
    const found = shadow.find(method as HTTPMethod, decodable);
    return (found?.store as { notFound?: string } | undefined)?.notFound;
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const allowed = [...methods].filter((m) => m !== request.method && shadow.find(m, url)).sort();
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        request,
        reply,
        405,
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed on this path`,
        {
          allowed,
        },
      );
    }
    return sendApiError(request, reply, noRoute(request));
  });
}

/** The 404 for a path that names nothing (the query string is left out of the message). */
export function noRoute(request: FastifyRequest): ApiError {
  // The path may hold a capability token (a claim link with a typo): never echoed (contract §21).
  return ApiError.notFound(
    `No route for ${request.method} ${redactCapabilities(request.url.split('?')[0] as string)}`,
  );
}

/** Sends the HTML 404 of pages for people, which a browser shows better than an envelope. */
export type PageNotFound = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * Fastify answers a URL its router cannot take (bad percent-encoding, a path parameter longer than
 * maxParamLength, such as a 300-character invoice id) before any hook, with a body of its own. Such
 * a path names no resource: NOT_FOUND in our envelope (contract §1, §4: a malformed id is a 404), or
 * the HTML 404 of the pages under `pages`' path prefixes.
 */
export function onUnroutableRequest(pages: Readonly<Record<string, PageNotFound>>) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('X-Trace-Id', request.id);
    if (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      const page = Object.entries(pages).find(([prefix]) => request.url.startsWith(prefix));
      if (page) return page[1](request, reply);
      const path = request.url.split('?')[0] as string;
      const message = request.server.idNotFoundMessage(request.method, path) ?? 'No such resource';
      return sendError(request, reply, 404, 'NOT_FOUND', message);
    }
    request.log.error({ err }, 'unroutable request');
    return sendError(request, reply, 500, 'INTERNAL_SERVER_ERROR', 'Something went wrong on our side');
  };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
