import { z } from 'zod';

/**
 * Response envelopes and shared answer fields. Presenters build the answers; the zod schemas beside
 * them describe the same answers for the OpenAPI document and for the test app's response check.
 */
export const zIsoTime = z.iso.datetime({ offset: true }).meta({ example: '2026-01-15T10:00:00.000Z' });
export const zId = z.uuid().meta({ example: '6f1c2a9e-3b7d-4c1e-9a5f-2d8b7e4c1a03' });

export const listMeta = z
  .strictObject({
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    per_page: z.number().int().min(0),
    total_pages: z.number().int().min(0),
  })
  .meta({ id: 'ListMeta' });

/** `{data: item}` */
export const dataOf = <S extends z.ZodType>(item: S) => z.strictObject({ data: item });

/** `{data: [item], meta: {total, page, per_page, total_pages}}` */
export const listOf = <S extends z.ZodType>(item: S) => z.strictObject({ data: z.array(item), meta: listMeta });
