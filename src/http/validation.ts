import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { hasIdShape, type IdPrefix } from '../ids.js';
import type { ErrorLocation, FieldError } from './errors.js';

/**
 * A string format whose failures are explained precisely: the format's validator says yes or no for
 * ajv, and `explain` turns a "no" into the rule and sentence the caller sees (contract §2). Features
 * declare theirs; app.ts hands the whole list to createValidation, so no format depends on which
 * modules happened to be imported first.
 */
export interface ExplainedFormat {
  name: string;
  validate(value: string): boolean;
  explain(value: string, field: string): { rule: string; message: string };
}

type Check = { ok: true } | { ok: false; rule: string; message: string };

/** A format from a checker that says why a value fails (a parser's result fits). */
export function explainedFormat(
  name: string,
  check: (value: string, field: string) => Check,
): ExplainedFormat {
  return {
    name,
    validate: (value) => check(value, name).ok,
    explain: (value, field) => {
      const r = check(value, field);
      return r.ok ? { rule: 'format', message: `${field} is invalid` } : { rule: r.rule, message: r.message };
    },
  };
}

/** Free text a merchant sends (order ids, names): printable, no control characters. */
export const noControlCharacters = explainedFormat('no-control-characters', (value, field) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we refuse
  /[\u0000-\u001f\u007f-\u009f]/.test(value)
    ? { ok: false, rule: 'control_characters', message: `${field} must not contain control characters` }
    : { ok: true },
);

/** A name people read (an account, a project): not only spaces, and no control characters. */
export const displayName = explainedFormat('display-name', (value, field) => {
  const control = noControlCharacters.explain(value, field);
  if (!noControlCharacters.validate(value)) return { ok: false, ...control };
  // An empty value is min_length's to refuse, not this rule's.
  return value !== '' && value.trim() === ''
    ? { ok: false, rule: 'blank', message: `${field} must not be only spaces` }
    : { ok: true };
});

export interface Validation {
  /** Compiles route schemas: bodies strictly, query strings and path params with string-to-number coercion. */
  compiler: FastifySchemaCompiler<unknown>;
  /** Turns ajv's errors for one part of the request into the contract's `details.errors` entries. */
  fieldErrors(context: string, errors: readonly ErrorObject[], input: unknown): FieldError[];
  /**
   * Checks a value against a route schema as a body would be, outside a route: how the dashboard
   * holds its forms to the admin API's field rules. Empty when the value is good.
   */
  check(schema: object, value: unknown): FieldError[];
}

export function createValidation(list: readonly ExplainedFormat[]): Validation {
  const formats = new Map(list.map((f) => [f.name, f]));
  const checker = newAjv(false);
  for (const f of formats.values()) checker.addFormat(f.name, { type: 'string', validate: f.validate });
  const compiled = new WeakMap<object, ValidateFunction>();
  return {
    compiler: schemaCompiler(formats),
    fieldErrors: (context, errors, input) => toFieldErrors(formats, context, errors, input),
    check(schema, value) {
      let validate = compiled.get(schema);
      if (!validate) {
        validate = checker.compile(schema);
        compiled.set(schema, validate);
      }
      return validate(value) ? [] : toFieldErrors(formats, 'body', validate.errors ?? [], value);
    },
  };
}

function newAjv(coerceTypes: boolean): Ajv {
  // removeAdditional off: unknown fields are reported, never silently stripped. allErrors: every
  // violated rule is listed, not just the first. Coercion only where the wire has no types (query).
  return new Ajv({
    removeAdditional: false,
    useDefaults: true,
    coerceTypes,
    allErrors: true,
    strict: false,
    // Decimal steps such as 0.01 are not exact in binary: 1.15 / 0.01 is 114.99999999999999.
    multipleOfPrecision: 9,
  });
}

function schemaCompiler(formats: ReadonlyMap<string, ExplainedFormat>): FastifySchemaCompiler<unknown> {
  const strict = newAjv(false);
  const coercing = newAjv(true);
  for (const ajv of [strict, coercing]) {
    for (const f of formats.values()) ajv.addFormat(f.name, { type: 'string', validate: f.validate });
  }
  return ({ schema, httpPart }) => {
    if (httpPart === 'params')
      return withIdShapes(schema as ObjectSchema, coercing.compile(schema as object));
    if (httpPart === 'querystring') {
      return withPlainIntegers(schema as ObjectSchema, coercing.compile(schema as object));
    }
    if (httpPart !== 'body') return coercing.compile(schema as object);
    const validate = strict.compile(schema as object);
    // A body whose fields are all optional may be left out altogether (POST …/simulate-payment);
    // Fastify hands an absent body to the validator as null.
    if ((schema as { required?: string[] }).required?.length) return validate;
    const optional = (data: unknown) => {
      const valid = validate(data ?? {});
      optional.errors = validate.errors;
      return valid;
    };
    optional.errors = null as ValidateFunction['errors'];
    return optional;
  };
}

interface ObjectSchema {
  properties?: Record<string, { type?: string; 'x-id-prefix'?: IdPrefix; 'x-not-found'?: string }>;
}

type Validate = ValidateFunction | (((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] });

/** The error a path id that cannot exist turns into: NOT_FOUND with the route's own message. */
export const ID_SHAPE = 'idShape';

/** Path ids are checked for their shape first; one that cannot exist fails with ID_SHAPE. */
function withIdShapes(schema: ObjectSchema, validate: ValidateFunction): Validate {
  const ids = Object.entries(schema.properties ?? {}).filter(([, p]) => p['x-id-prefix']);
  if (ids.length === 0) return validate;
  const checked = (data: unknown) => {
    const params = data as Record<string, unknown>;
    for (const [name, p] of ids) {
      const value = params[name];
      if (typeof value !== 'string' || !hasIdShape(value, p['x-id-prefix'] as IdPrefix)) {
        checked.errors = [
          {
            keyword: ID_SHAPE,
            instancePath: `/${name}`,
            schemaPath: '',
            params: { message: p['x-not-found'] ?? 'No such resource' },
          },
        ];
        return false;
      }
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  };
  checked.errors = null as ValidateFunction['errors'];
  return checked;
}

// Query numbers are plain decimal integers: ajv's coercion alone would take 1e1, 0x10, " 1" or 00001.
const PLAIN_INTEGER = /^(0|-?[1-9][0-9]{0,15})$/;

function withPlainIntegers(schema: ObjectSchema, validate: ValidateFunction): Validate {
  const integers = Object.entries(schema.properties ?? {})
    .filter(([, p]) => p.type === 'integer')
    .map(([name]) => name);
  if (integers.length === 0) return validate;
  const checked = (data: unknown) => {
    const query = data as Record<string, unknown>;
    const bad = integers.filter(
      (n) => typeof query[n] === 'string' && !PLAIN_INTEGER.test(query[n] as string),
    );
    const valid = validate(data);
    const errors = (validate.errors ?? []).filter((e) => !bad.some((n) => e.instancePath === `/${n}`));
    for (const n of bad) {
      errors.push({ keyword: 'type', instancePath: `/${n}`, schemaPath: '', params: { type: 'integer' } });
    }
    checked.errors = errors.length > 0 ? errors : null;
    return valid && bad.length === 0;
  };
  checked.errors = null as ValidateFunction['errors'];
  return checked;
}

const LOCATIONS: Record<string, ErrorLocation> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

function toFieldErrors(
  formats: ReadonlyMap<string, ExplainedFormat>,
  context: string,
  errors: readonly ErrorObject[],
  input: unknown,
): FieldError[] {
  const where = LOCATIONS[context] ?? 'body';
  const out: FieldError[] = [];
  for (const e of errors) {
    const mapped = mapError(formats, where, e, input);
    if (mapped && !out.some((o) => o.field === mapped.field && o.rule === mapped.rule)) out.push(mapped);
  }
  return out;
}

function mapError(
  formats: ReadonlyMap<string, ExplainedFormat>,
  where: ErrorLocation,
  e: ErrorObject,
  input: unknown,
): FieldError | undefined {
  const path = e.instancePath.split('/').slice(1).map(decodePointer);
  const base = path.join('.');
  const name = (p: string) => (where === 'header' ? headerName(p) : p);
  const field = name(base) || where;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const f = name(joinPath(base, String(p.missingProperty)));
      return { in: where, field: f, rule: 'required', message: `${f} is required` };
    }
    case 'additionalProperties': {
      const f = name(joinPath(base, String(p.additionalProperty)));
      return { in: where, field: f, rule: 'unknown_field', message: `${f} is not a known field` };
    }
    case 'propertyNames':
      return undefined; // its nested error (min/max length of the key) says it better
    case 'type': {
      const types = String(p.type)
        .split(',')
        .filter((t) => t !== 'null');
      const article = /^[aeiou]/.test(types[0] ?? '') ? 'an' : 'a';
      const wanted = types.length === 1 ? `${article} ${types[0]}` : types.join(' or ');
      return { in: where, field, rule: 'type', message: `${field} must be ${wanted}` };
    }
    case 'format': {
      const format = formats.get(String(p.format));
      const value = valueAt(input, path);
      if (format && typeof value === 'string') return { in: where, field, ...format.explain(value, field) };
      return { in: where, field, rule: 'format', message: `${field} is not in the expected format` };
    }
    case 'minLength':
      return {
        in: where,
        field: propertyNameField(field, e),
        rule: 'min_length',
        message: `${propertyNameField(field, e)} must be at least ${p.limit} ${p.limit === 1 ? 'character' : 'characters'} long`,
      };
    case 'maxLength':
      return {
        in: where,
        field: propertyNameField(field, e),
        rule: 'max_length',
        message: `${propertyNameField(field, e)} must be at most ${p.limit} characters long`,
      };
    case 'minimum':
      return { in: where, field, rule: 'minimum', message: `${field} must be at least ${p.limit}` };
    case 'maximum':
      return { in: where, field, rule: 'maximum', message: `${field} must be at most ${p.limit}` };
    case 'minProperties':
      return {
        in: where,
        field,
        rule: 'min_properties',
        message: `${field} must have at least ${p.limit} ${p.limit === 1 ? 'field' : 'fields'}`,
      };
    case 'maxProperties':
      return {
        in: where,
        field,
        rule: 'max_properties',
        message: `${field} may have at most ${p.limit} keys`,
      };
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map(String).join(', ');
      return { in: where, field, rule: 'enum', message: `${field} must be one of: ${allowed}` };
    }
    case 'pattern':
      return { in: where, field, rule: 'pattern', message: `${field} is not in the expected format` };
    case 'minItems':
      return { in: where, field, rule: 'min_items', message: `${field} must hold at least ${p.limit}` };
    case 'maxItems':
      return { in: where, field, rule: 'max_items', message: `${field} must hold at most ${p.limit}` };
    case 'multipleOf':
      return {
        in: where,
        field,
        rule: 'multiple_of',
        message: `${field} must be a multiple of ${p.multipleOf}${p.multipleOf === 0.01 ? ' (at most two decimals)' : ''}`,
      };
    default:
      return { in: where, field, rule: e.keyword, message: `${field} ${e.message ?? 'is invalid'}` };
  }
}

function propertyNameField(field: string, e: ErrorObject): string {
  // ajv reports a bad key of an object (metadata) with the key on the error itself (not in params).
  return typeof e.propertyName === 'string' ? joinPath(field, e.propertyName) : field;
}

function joinPath(base: string, leaf: string): string {
  return base ? `${base}.${leaf}` : leaf;
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

function valueAt(input: unknown, path: string[]): unknown {
  let v = input;
  for (const key of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}
