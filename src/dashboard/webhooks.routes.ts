import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const webhookRoutes: FastifyPluginAsyncTypebox = async () => {};
