import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { startTestApp } from '../../../test/app.js';
import { MERCHANT_TAGS, TYPES_FILE } from './generate.js';
import { generateTypes, type OpenApiDocument } from './openapi-types.js';
import { literal, propertyKey, renderSchema } from './schema-types.js';

/** Evaluates a TypeScript literal type as the JavaScript value it spells. */
const evaluate = (source: string): unknown => new Function(`return ${source}`)();

describe('the committed types', () => {
  test('are what the live server’s /v1/openapi.json generates (run `npm run generate -w @paydesk/node`)', async () => {
    const t = await startTestApp();
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`);
      const doc = (await res.json()) as OpenApiDocument;
      expect(generateTypes(doc, MERCHANT_TAGS)).toBe(readFileSync(TYPES_FILE, 'utf8'));
    } finally {
      await t.close();
    }
  });
});

const invoiceDoc = (extra: Record<string, unknown> = {}): OpenApiDocument => ({
  paths: {
    '/v1/things/{thing}': {
      get: {
        operationId: 'getThing',
        summary: 'Get a thing',
        tags: ['Things'],
        parameters: [
          { in: 'path', name: 'thing', required: true, schema: { type: 'string' } },
          { in: 'query', name: 'limit', required: true, schema: { type: 'integer', default: 20 } },
          { in: 'query', name: 'q', required: true, schema: { type: 'string' } },
          { in: 'header', name: 'x-request-tag', schema: { type: 'string' }, description: 'Tags the call' },
        ],
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        },
      },
    },
    '/v1/admin/things': {
      post: { operationId: 'adminMakeThing', tags: ['Admin'], responses: {} },
    },
  },
  components: {
    schemas: {
      Unused: { type: 'object', properties: { x: { type: 'string' } } },
      Problem: { type: 'object', required: ['code'], properties: { code: { enum: ['A', 'B'] } } },
      Thing: {
        type: 'object',
        description: 'A thing',
        required: ['id', 'tags', 'parts'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', description: 'Its id, thing_…' },
          state: { anyOf: [{ const: 'on' }, { const: 'off' }, { type: 'null' }] },
          tags: { type: 'array', items: { type: ['string', 'null'] } },
          parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          'content-type': { type: 'string' },
          ...extra,
        },
      },
      Part: { type: 'object', properties: { n: { type: 'integer' } } },
    },
  },
});

describe('generateTypes', () => {
  const out = generateTypes(invoiceDoc(), ['Things']);

  test('lists the operations of the tags asked for, and only those', () => {
    expect(out).toContain("getThing: { method: 'GET', path: '/v1/things/{thing}' },");
    expect(out).not.toContain('adminMakeThing');
  });

  test('declares the components the operations use, errors included, in the document’s order', () => {
    expect(out).not.toContain('Unused');
    const order = ['interface Problem', 'interface Thing', 'interface Part'].map((s) => out.indexOf(s));
    expect(order.every((i, n) => i > 0 && (n === 0 || i > (order[n - 1] ?? 0)))).toBe(true);
    expect(out).toContain(
      '/** A thing */\nexport interface Thing {\n  /** Its id, thing_… */\n  id: string;',
    );
    expect(out).toContain("  state?: 'on' | 'off' | null;\n  tags: (string | null)[];\n  parts: Part[];");
    expect(out).toContain("  labels?: Record<string, string>;\n  'content-type'?: string;\n}");
  });

  test('makes a parameter with a default optional, and path parameters required', () => {
    expect(out).toContain('export interface GetThingPath {\n  thing: string;\n}');
    expect(out).toContain(
      'export interface GetThingQuery {\n  /** @default 20 */\n  limit?: number;\n  q: string;\n}',
    );
    expect(out).toContain(
      "export interface GetThingHeaders {\n  /** Tags the call */\n  'x-request-tag'?: string;\n}",
    );
    expect(out).toContain(
      '/** GET /v1/things/{thing}: Get a thing */\nexport type GetThingResponse = Thing;',
    );
  });

  test('picks up a field the server adds, with nothing else to change', () => {
    const grown = generateTypes(
      invoiceDoc({ redirect_url: { type: ['string', 'null'], description: 'Where the payer returns' } }),
      ['Things'],
    );
    expect(grown).toContain('  /** Where the payer returns */\n  redirect_url?: string | null;\n}');
  });

  test('refuses a $ref the document does not define', () => {
    const broken = invoiceDoc({ owner: { $ref: '#/components/schemas/Owner' } });
    expect(() => generateTypes(broken, ['Things'])).toThrow(
      'The document has no schema for #/components/schemas/Owner',
    );
  });
});

describe('literals and keys', () => {
  test('a string literal spells the string, whatever it holds', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => evaluate(literal(s)) === s));
  });

  test('a property key is bare only when it is an identifier, and always names the property', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1 }), (name) => {
        const key = propertyKey(name);
        // Not checked through an object literal, where `__proto__: 1` sets the prototype instead.
        return key === name ? /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) : evaluate(key) === name;
      }),
    );
    expect(propertyKey('__proto__')).toBe('__proto__');
    expect(propertyKey('idempotency-key')).toBe("'idempotency-key'");
  });

  test('a union inside an array is parenthesised, an object is not', () => {
    expect(renderSchema({ type: 'array', items: { enum: ['a|b', 'c'] } }, '')).toBe("('a|b' | 'c')[]");
    expect(renderSchema({ type: 'array', items: { enum: ['a|b'] } }, '')).toBe("'a|b'[]");
    expect(
      renderSchema(
        { type: ['array', 'null'], items: { type: 'object', properties: { a: { type: 'string' } } } },
        '',
      ),
    ).toBe('{\n  a?: string;\n}[] | null');
  });
});
