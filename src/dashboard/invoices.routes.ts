import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const invoiceRoutes: FastifyPluginAsyncTypebox = async () => {};
