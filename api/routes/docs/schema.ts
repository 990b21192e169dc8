import { z } from 'zod';

export const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenAPIDocument', description: 'This document (OpenAPI 3.1)' });

export const assetParams = z.strictObject({ name: z.string().max(64).meta({ example: 'api-reference.js' }) });
export const assetQuery = z.strictObject({ v: z.string().max(64).optional() });
