import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serializer = (data: unknown) => string;
const compiled = new Map<string, Serializer>();

/**
 * Fastify's own response serializer compiler (fast-json-stringify), remembering what it compiled
 * for the rest of the worker: every test app registers the same routes with the same schemas, and
 * compiling them again cost each app about 85 ms of its 200 ms build. The key is the whole input
 * of a compilation (the app's shared schemas, the options and the route's schema, as JSON), so two
 * apps share a serializer only when they would have compiled the same one. Production builds one
 * app per process and keeps Fastify's default.
 */
export function rememberingSerializers(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, serializerOpts) => {
    const compile = factory(externalSchemas, serializerOpts);
    const context = JSON.stringify([externalSchemas ?? null, serializerOpts ?? null]);
    return (route) => {
      const key = `${context}\n${JSON.stringify(route.schema)}`;
      let serialize = compiled.get(key);
      if (!serialize) {
        serialize = compile(route) as Serializer;
        compiled.set(key, serialize);
      }
      return serialize;
    };
  };
}
