/** What the PostgreSQL queries share: numbered placeholders and quoted aliases. */

import type { Condition, SqlValue } from '../sql-shapes.js';

/** Conjunction of conditions written with one `?` each, numbered `$n` in order; an undefined value leaves its condition out. */
export class PgWhere {
  private readonly parts: string[] = [];
  readonly values: SqlValue[] = [];

  constructor(conditions: readonly Condition[]) {
    for (const [condition, value] of conditions) {
      if (value !== undefined) this.parts.push(condition.replace('?', this.bind(value)));
    }
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
 * A select list of sql-shapes.ts or store/sqlite/rows.ts for PostgreSQL, which folds unquoted
 * names to lower case: `order_id AS orderId` becomes `order_id AS "orderId"`, so rows come back
 * under the row type's own field names, in the same order.
 */
export function quotedAliases(select: string): string {
  return select.replace(/\bAS (\w+)/g, 'AS "$1"');
}
