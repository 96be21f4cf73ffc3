import { Type } from '@sinclair/typebox';

/** `limit` and `page` of every paginated list (contract §4): spread into a route's query schema. */
export const PAGE_QUERY_FIELDS = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
};

export interface PageQuery {
  limit: number;
  page: number;
}

/** The `meta` of a paginated list. */
export const PaginationMeta = Type.Object({
  pagination: Type.Object({
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    total_pages: Type.Integer(),
    has_more: Type.Boolean(),
  }),
});

export function offsetOf(query: PageQuery): number {
  return (query.page - 1) * query.limit;
}

export function pagination(query: PageQuery, total: number) {
  const totalPages = Math.ceil(total / query.limit);
  return {
    page: query.page,
    limit: query.limit,
    total,
    total_pages: totalPages,
    has_more: query.page < totalPages,
  };
}
