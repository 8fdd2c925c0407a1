import { unexpectedAnswer, usageError } from './errors.js';

/**
 * `config set key=value …`: a command line has only strings, the config has numbers, strings and
 * booleans. Each value takes the JSON type of the key's current value, so
 * `requestWeightPerMinute=6000` is sent as the number 6000 while `defaultMakerFeeRate=0.0008`
 * stays the decimal string it must be.
 */
export function configPatch(current: unknown, assignments: readonly string[]): Record<string, unknown> {
  if (typeof current !== 'object' || current === null || Array.isArray(current)) {
    throw unexpectedAnswer('the server answered the config request without a JSON object');
  }
  const known = current as Readonly<Record<string, unknown>>;
  const patch: Record<string, unknown> = {};
  for (const assignment of assignments) {
    const at = assignment.indexOf('=');
    if (at <= 0) throw usageError(`expected key=value, got '${assignment}'`);
    const key = assignment.slice(0, at);
    const text = assignment.slice(at + 1);
    if (!Object.hasOwn(known, key)) {
      throw usageError(`unknown config key '${key}' (known: ${Object.keys(known).join(', ')})`);
    }
    if (Object.hasOwn(patch, key)) throw usageError(`config key '${key}' given twice`);
    patch[key] = typedValue(key, text, known[key]);
  }
  return patch;
}

function typedValue(key: string, text: string, currentValue: unknown): unknown {
  switch (typeof currentValue) {
    case 'number': {
      const value = Number(text);
      if (!/^-?[0-9]+(\.[0-9]+)?$/.test(text) || (!text.includes('.') && !Number.isSafeInteger(value))) {
        throw usageError(`config key '${key}' takes a number, got '${text}'`);
      }
      return value;
    }
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw usageError(`config key '${key}' takes true or false, got '${text}'`);
      return text === 'true';
    case 'object':
      if (currentValue === null) return text;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw usageError(`config key '${key}' takes a JSON ${Array.isArray(currentValue) ? 'array' : 'object'}, got '${text}'`);
      }
    default:
      return text;
  }
}
