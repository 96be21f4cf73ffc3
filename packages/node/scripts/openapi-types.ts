import { renderSchema, type Schema } from './schema-types.js';

/**
 * TypeScript types from Paydesk's OpenAPI 3.1 document. We write our own rather than use
 * openapi-typescript, which needs TypeScript 5's compiler API (this repository runs TypeScript 7).
 * It reads what our route schemas produce, not all of OpenAPI: operations with an operationId, JSON
 * bodies, `$ref`s to components/schemas.
 */
interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  description?: string;
  schema: Schema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export const HEADER = [
  "// Generated from Paydesk's OpenAPI document by `npm run generate -w @paydesk/node`. Do not edit: a",
  '// test regenerates it from the live server and fails on any difference.',
].join('\n');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The file's text: an `operations` table, the component schemas they use, and each operation's types. */
export function generateTypes(doc: OpenApiDocument, tags: readonly string[]): string {
  const ops = selectOperations(doc, tags);
  const out: string[] = [HEADER, '', '/** Every operation of the client: its method and path template. */'];
  out.push('export const operations = {');
  for (const op of ops) out.push(`  ${op.id}: { method: '${op.method}', path: '${op.path}' },`);
  out.push('} as const;');

  const opTypes = ops.flatMap(operationTypes);
  const components = doc.components?.schemas ?? {};
  // Error responses name their schema too (the ErrorEnvelope, with the closed set of error codes).
  const used = [...opTypes.map((t) => t.schema), ...ops.map((o) => o.op.responses)];
  for (const name of referencedComponents(used, components)) {
    out.push('', declaration(name, components[name] as Schema));
  }
  for (const t of opTypes) out.push('', declaration(t.name, t.schema, t.doc));
  return `${out.join('\n')}\n`;
}

interface SelectedOperation {
  id: string;
  method: string;
  path: string;
  op: Operation;
}

function selectOperations(doc: OpenApiDocument, tags: readonly string[]): SelectedOperation[] {
  const selected: SelectedOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId || !op.tags?.some((t) => tags.includes(t))) continue;
      selected.push({ id: op.operationId, method: method.toUpperCase(), path, op });
    }
  }
  return selected;
}

interface NamedType {
  name: string;
  schema: Schema;
  doc?: string;
}

/** `<Op>Path`, `<Op>Query`, `<Op>Headers`, `<Op>Body` and `<Op>Response` (the 2xx envelope). */
function operationTypes({ id, method, path, op }: SelectedOperation): NamedType[] {
  const base = id.charAt(0).toUpperCase() + id.slice(1);
  const types: NamedType[] = [];
  for (const [where, suffix] of [
    ['path', 'Path'],
    ['query', 'Query'],
    ['header', 'Headers'],
  ] as const) {
    const params = (op.parameters ?? []).filter((p) => p.in === where);
    if (params.length > 0) types.push({ name: base + suffix, schema: parametersSchema(params) });
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) types.push({ name: `${base}Body`, schema: body });
  const success = Object.keys(op.responses ?? {})
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
  const response = success && op.responses?.[success]?.content?.['application/json']?.schema;
  if (response) {
    const doc = `${method} ${path}${op.summary ? `: ${op.summary}` : ''}`;
    types.push({ name: `${base}Response`, schema: stripDescription(response), doc });
  }
  return types;
}

/** Parameters as one object. A parameter with a default is optional to the caller, whatever `required` says. */
function parametersSchema(params: Parameter[]): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = p.description ? { ...p.schema, description: p.description } : p.schema;
    if (p.in === 'path' || (p.required && p.schema.default === undefined)) required.push(p.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

// A response schema repeats the response's description, which the operation's comment already says.
function stripDescription(schema: Schema): Schema {
  const { description: _, ...rest } = schema;
  return rest;
}

/** The component schemas the operations use, directly or through each other, in the document's order. */
function referencedComponents(roots: unknown[], components: Record<string, Schema>): string[] {
  const seen = new Set<string>();
  const visit = (schema: unknown): void => {
    if (!schema || typeof schema !== 'object') return;
    const ref = (schema as Schema).$ref;
    const name = ref?.replace('#/components/schemas/', '');
    if (name && !seen.has(name)) {
      if (!components[name]) throw new Error(`The document has no schema for ${ref}`);
      seen.add(name);
      visit(components[name]);
    }
    // Arrays too: Object.values of an array is its items.
    Object.values(schema).forEach(visit);
  };
  roots.forEach(visit);
  return Object.keys(components).filter((name) => seen.has(name));
}

function declaration(name: string, schema: Schema, doc?: string): string {
  const comment = doc ?? schema.description;
  const prefix = comment ? `/** ${comment.replace(/\*\//g, '*\\/')} */\n` : '';
  const body = renderSchema({ ...schema, description: undefined }, '');
  const isInterface = schema.type === 'object' && !schema.$ref && body.startsWith('{');
  return isInterface
    ? `${prefix}export interface ${name} ${body}`
    : `${prefix}export type ${name} = ${body};`;
}
