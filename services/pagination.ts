import { z } from 'zod';
import type { Knex } from 'knex';

const intParam = (min: number, max: number) =>
  z.string().regex(/^\d+$/, { error: 'must be a whole number' }).transform(Number).pipe(z.number().int().min(min).max(max));

/** `page`, `per_page` and its alias `limit`. Out-of-range values get a 400, never a silent clamp. */
export const paginationQuery = {
  page: intParam(1, 1_000_000).optional(),
  per_page: intParam(1, 100).optional(),
  limit: intParam(1, 100).optional(),
};

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

export function toPage(q: { page?: number; per_page?: number; limit?: number }): Page {
  const page = q.page ?? 1;
  const perPage = q.per_page ?? q.limit ?? 20;
  return { page, perPage, offset: (page - 1) * perPage };
}

export interface ListResult<T> {
  data: T[];
  meta: { total: number; page: number; per_page: number; total_pages: number };
}

export function listEnvelope<T>(data: T[], total: number, p: Page): ListResult<T> {
  return { data, meta: { total, page: p.page, per_page: p.perPage, total_pages: Math.ceil(total / p.perPage) } };
}

/**
 * Run a filtered query as a page: one count and one page of rows.
 * `base` must carry the filters (no order/limit); `order` is applied to the rows query only.
 */
export async function paginate<T>(
  base: Knex.QueryBuilder,
  p: Page,
  order: Array<{ column: string; order: 'asc' | 'desc' }>,
  map: (row: any) => T,
): Promise<ListResult<T>> {
  const [rows, countRow] = await Promise.all([
    base.clone().orderBy(order).limit(p.perPage).offset(p.offset),
    base.clone().clearSelect().clearOrder().count<{ count: number }[]>({ count: '*' }).first(),
  ]);
  return listEnvelope(rows.map(map), Number(countRow?.count ?? 0), p);
}
