/** The part of JSON Schema (2020-12, as OpenAPI 3.1 uses it) that our route schemas produce. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  description?: string | undefined;
  default?: unknown;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INDENT = '  ';

/** A TypeScript type expression for the schema; nested object members are indented from `indent`. */
export function renderSchema(schema: Schema, indent: string): string {
  if (schema.$ref) return refName(schema.$ref);
  if ('const' in schema) return literal(schema.const);
  if (schema.enum) return union(schema.enum.map(literal));
  if (schema.anyOf || schema.oneOf) {
    return union((schema.anyOf ?? schema.oneOf ?? []).map((s) => renderSchema(s, indent)));
  }
  if (schema.allOf) return schema.allOf.map((s) => group(renderSchema(s, indent))).join(' & ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return 'unknown';
  return union(types.map((type) => renderType(type, schema, indent)));
}

function renderType(type: string, schema: Schema, indent: string): string {
  switch (type) {
    case 'string':
    case 'boolean':
    case 'null':
      return type;
    case 'integer':
    case 'number':
      return 'number';
    case 'array':
      return `${group(schema.items ? renderSchema(schema.items, indent) : 'unknown')}[]`;
    case 'object':
      return renderObject(schema, indent);
    default:
      throw new Error(`Unsupported JSON Schema type: ${type}`);
  }
}

function renderObject(schema: Schema, indent: string): string {
  const extra = schema.additionalProperties;
  const rest = extra === undefined || extra === true ? 'unknown' : extra === false ? undefined : null;
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) {
    if (rest === undefined) return 'Record<string, never>';
    return `Record<string, ${rest ?? renderSchema(extra as Schema, indent)}>`;
  }
  const inner = indent + INDENT;
  const required = new Set(schema.required ?? []);
  const lines = entries.map(([name, prop]) => {
    const optional = required.has(name) ? '' : '?';
    return `${comment(prop, inner)}${inner}${propertyKey(name)}${optional}: ${renderSchema(prop, inner)};`;
  });
  if (extra && typeof extra === 'object') lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function comment(schema: Schema, indent: string): string {
  const parts = [
    schema.description,
    schema.default === undefined ? '' : `@default ${literal(schema.default)}`,
  ];
  const text = parts
    .filter(Boolean)
    .join(' ')
    .replace(/\*\//g, '*\\/')
    .replace(/\s*\n\s*/g, ' ');
  return text ? `${indent}/** ${text} */\n` : '';
}

function refName(ref: string): string {
  const name = ref.replace('#/components/schemas/', '');
  if (!IDENTIFIER.test(name)) throw new Error(`Unsupported $ref: ${ref}`);
  return name;
}

function union(members: string[]): string {
  return [...new Set(members)].join(' | ');
}

/** Parenthesised when it is a union or an intersection at its top level, so `[]` binds to all of it. */
function group(type: string): string {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < type.length; i++) {
    const ch = type.charAt(i);
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === "'") quoted = false;
    } else if (ch === "'") quoted = true;
    else if ('{([<'.includes(ch)) depth++;
    else if ('})]>'.includes(ch)) depth--;
    else if (depth === 0 && (ch === '|' || ch === '&')) return `(${type})`;
  }
  return type;
}

/** A property name as TypeScript needs it: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : literal(name);
}

/** A JSON value as a TypeScript literal type; strings in single quotes. */
export function literal(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  const escaped = JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${escaped}'`;
}
