import { BourseError } from '../../core/errors.js';

export type AdminQuery = Record<string, string | undefined>;

/** A query integer of an operator route: absent or empty gives `fallback`; digits within `min`…`max`, else -1130 naming it. */
export function queryInt(query: AdminQuery, name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
  const text = query[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!/^[0-9]{1,15}$/.test(text) || value < (bounds.min ?? 0) || value > (bounds.max ?? Number.MAX_SAFE_INTEGER)) throw new BourseError('INVALID_PARAM_VALUE', [name]);
  return value;
}

/** One of `values`, exactly as written; absent or empty gives undefined, anything else -1130 naming it. */
export function queryEnum<T extends string>(query: AdminQuery, name: string, values: readonly T[]): T | undefined {
  const text = query[name];
  if (text === undefined || text === '') return undefined;
  const found = values.find((v) => v === text);
  if (found === undefined) throw new BourseError('INVALID_PARAM_VALUE', [name]);
  return found;
}
