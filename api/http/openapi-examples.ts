/**
 * Examples for the OpenAPI document, derived from the JSON Schemas the document already holds
 * (field-level `example`s from the zod `.meta()` of shared fields, enums, formats and bounds), or
 * given by a route (`examples`) where a rule across fields needs a hand-picked value.
 * test/docs/examples.test.ts parses every example with the route's own zod schemas, and the
 * Redocly linter (`no-invalid-media-type-examples`) checks them against the document's schemas.
 */

type Schema = Record<string, any>;
type Components = Record<string, Schema>;

const FORMATS: Record<string, string> = {
  uuid: '6f1c2a9e-3b7d-4c1e-9a5f-2d8b7e4c1a03',
  'date-time': '2030-01-15T15:00:00.000Z',
  date: '2030-01-15',
  email: 'ada@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
};

export interface ExampleOptions {
  /** Request bodies: required properties only (optional ones may exclude each other). */
  requiredOnly?: boolean;
}

export function exampleOf(schema: Schema | undefined, components: Components, opts: ExampleOptions = {}, depth = 0): unknown {
  if (!schema || depth > 12) return null;
  if (typeof schema.$ref === 'string') return exampleOf(components[schema.$ref.split('/').pop()!], components, opts, depth + 1);
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const variants = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(variants) && variants.length) {
    const nonNull = variants.find((v: Schema) => v.type !== 'null') ?? variants[0];
    return exampleOf(nonNull, components, opts, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((s: Schema) => exampleOf(s, components, opts, depth + 1) as object));
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [k, v] of Object.entries<Schema>(schema.properties ?? {})) {
        if (opts.requiredOnly && !required.has(k)) continue;
        out[k] = exampleOf(v, components, opts, depth + 1);
      }
      return out;
    }
    case 'array': {
      const n = Math.max(1, schema.minItems ?? 1);
      return Array.from({ length: n }, () => exampleOf(schema.items, components, opts, depth + 1));
    }
    case 'string': {
      const base = (schema.format && FORMATS[schema.format]) || 'string';
      return base.length < (schema.minLength ?? 0) ? base.padEnd(schema.minLength, 'x') : base;
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
      if (min !== undefined) return min;
      if (max !== undefined && max < 1) return max;
      return 1;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

/** A documented error body with a real code, message and (for 400) details. */
export function errorExample(status: number, scope?: string, conflict?: string): object {
  const request_id = '01J8Z6Q4W3M2N1P0R9S8T7V6X5';
  const body = (code: string, message: string, details?: Array<{ path: string; message: string }>) => ({
    error: { code, message, ...(details ? { details } : {}), request_id },
  });
  switch (status) {
    case 400:
      return body('validation_failed', 'The request did not pass validation', [{ path: 'body.title', message: 'Required' }]);
    case 401:
      return body('invalid_token', 'Missing or invalid credential');
    case 403:
      return scope
        ? body('insufficient_scope', `This credential lacks the required scope: ${scope}`)
        : body('dashboard_only', 'This endpoint is available to dashboard sessions only');
    case 404:
      return body('not_found', 'Resource not found');
    case 409: {
      const named = /^`([a-z_]+)`: (.*)$/.exec(conflict ?? '');
      return named ? body(named[1], `${named[2][0].toUpperCase()}${named[2].slice(1)}`) : body('conflict', conflict ?? 'Conflict');
    }
    case 429:
      return body('rate_limited', 'Rate limit exceeded; retry in 42 s');
    default:
      return body('invalid_request', 'Bad request');
  }
}

export const oauthErrorExample = { error: 'invalid_grant', error_description: 'Invalid grant: authorization code is invalid' };
