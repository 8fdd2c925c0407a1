import { parseDecimal } from '../../core/decimal.js';
import { BourseError } from '../../core/errors.js';

/** A JSON request body of the operator API, with readers that answer operator.md's errors. */
export class AdminBody {
  private constructor(private readonly fields: Record<string, unknown>) {}

  static parse(raw: string): AdminBody {
    if (raw.trim().length === 0) return new AdminBody({});
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new BourseError('ILLEGAL_CHARS', ['body', 'a JSON object']);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new BourseError('ILLEGAL_CHARS', ['body', 'a JSON object']);
    return new AdminBody(value as Record<string, unknown>);
  }

  /** Every member as sent, for a partial document merged by the core (payments config). */
  members(): Record<string, unknown> {
    return structuredClone(this.fields);
  }

  private raw(name: string, required: boolean): unknown {
    const value = this.fields[name];
    if (value === undefined || value === null) {
      if (required) throw new BourseError('MANDATORY_PARAM', [name]);
      return undefined;
    }
    return value;
  }

  string(name: string, options: { required: true; pattern?: RegExp }): string;
  string(name: string, options?: { required?: false; pattern?: RegExp }): string | undefined;
  string(name: string, options: { required?: boolean; pattern?: RegExp } = {}): string | undefined {
    const value = this.raw(name, options.required === true);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new BourseError('ILLEGAL_CHARS', [name, 'a string']);
    if (options.pattern !== undefined && !options.pattern.test(value)) throw new BourseError('INVALID_PARAM_VALUE', [name]);
    return value;
  }

  /** A decimal as its text: a JSON string, or a JSON number written in plain notation. */
  decimal(name: string, required: true): string;
  decimal(name: string, required?: false): string | undefined;
  decimal(name: string, required = false): string | undefined {
    const value = this.raw(name, required);
    if (value === undefined) return undefined;
    const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
    if (text === undefined || parseDecimal(text) === null) throw new BourseError('ILLEGAL_CHARS', [name, 'a decimal string']);
    return text;
  }

  /** A non-negative integer id or count: a JSON number or a string of digits. */
  integer(name: string, required: true): number;
  integer(name: string, required?: false): number | undefined;
  integer(name: string, required = false): number | undefined {
    const value = this.raw(name, required);
    if (value === undefined) return undefined;
    const number = typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) throw new BourseError('ILLEGAL_CHARS', [name, 'an integer']);
    return number;
  }

  boolean(name: string): boolean | undefined {
    const value = this.raw(name, false);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw new BourseError('ILLEGAL_CHARS', [name, 'true or false']);
    return value;
  }

  strings(name: string): string[] | undefined {
    const value = this.raw(name, false);
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new BourseError('ILLEGAL_CHARS', [name, 'an array of strings']);
    return value as string[];
  }

  has(name: string): boolean {
    return this.fields[name] !== undefined;
  }
}

/** A path id: digits only, else 404 naming the object. */
export function pathId(text: string, what: string): number {
  if (!/^[0-9]{1,15}$/.test(text)) throw new BourseError('NOT_FOUND', [`${what} ${text}`]);
  return Number(text);
}
