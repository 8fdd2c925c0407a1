/** What the PostgreSQL queries share: numbered placeholders, quoted aliases, the limit guard. */

import { MAX_QUERY_LIMIT } from '../store.js';
import type { SqlValue } from '../sqlite/rows.js';

/** Conjunction of conditions written with one `?` each, numbered `$n` in order; an undefined value leaves its condition out. */
export class PgWhere {
  private readonly parts: string[] = [];
  readonly values: SqlValue[] = [];

  when(condition: string, value: SqlValue | undefined): this {
    if (value !== undefined) {
      this.values.push(value);
      this.parts.push(condition.replace('?', `$${this.values.length}`));
    }
    return this;
  }

  /** The conjunction, TRUE when there is no condition. */
  get sql(): string {
    return this.parts.length === 0 ? 'TRUE' : this.parts.join(' AND ');
  }

  /** Binds one more value (LIMIT, OFFSET …): its placeholder. */
  bind(value: SqlValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * A SQLite select list (store/sqlite/rows.ts) for PostgreSQL, which folds unquoted names to
 * lower case: `order_id AS orderId` becomes `order_id AS "orderId"`, so rows come back under the
 * row type's own field names, in the same order.
 */
export function quotedAliases(select: string): string {
  return select.replace(/\bAS (\w+)/g, 'AS "$1"');
}

export function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    throw new RangeError(`limit must be an integer in 1..${MAX_QUERY_LIMIT}: ${limit}`);
  }
  return limit;
}
