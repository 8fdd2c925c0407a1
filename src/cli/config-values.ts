import { exactPlain, numberKeepsValue } from '../api/admin/admin-body.js';
import { readJson, STORED_TEXT_JSON, type JsonValue } from '../api/json-body.js';
import { unexpectedAnswer, usageError } from './errors.js';

/**
 * `config set key=value …` (or `key value …`, as the spec writes `config set algoOrders true`; the
 * two may be mixed): a command line has only strings, the config has numbers, strings and
 * booleans. Each value takes the JSON type of the key's current value, so
 * `requestWeightPerMinute=6000` is sent as the number 6000 while `defaultMakerFeeRate=0.0008`
 * stays the decimal string it must be, and `algoOrders true` is the boolean (only `true` or
 * `false`). A number is sent exactly as typed or refused: one that JSON would carry as another
 * number (`1.00000000000000001`, `9007199254740993`) is a usage error.
 */
export function configPatch(current: unknown, settings: readonly string[]): Record<string, unknown> {
  if (typeof current !== 'object' || current === null || Array.isArray(current)) {
    throw unexpectedAnswer('the server answered the config request without a JSON object');
  }
  const known = current as Readonly<Record<string, unknown>>;
  const patch: Record<string, unknown> = {};
  for (const [key, text] of assignments(settings)) {
    if (!Object.hasOwn(known, key)) {
      throw usageError(`unknown config key '${key}' (known: ${Object.keys(known).join(', ')})`);
    }
    if (Object.hasOwn(patch, key)) throw usageError(`config key '${key}' given twice`);
    patch[key] = typedValue(key, text, known[key]);
  }
  return patch;
}

/**
 * The `[key, value]` pairs of the arguments: `key=value` splits at its first `=`; an argument
 * without `=` is a key whose value is the whole next argument (`note a=b` sets note to `a=b`).
 */
function assignments(settings: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < settings.length; i++) {
    const setting = settings[i] ?? '';
    const at = setting.indexOf('=');
    if (at > 0) {
      pairs.push([setting.slice(0, at), setting.slice(at + 1)]);
      continue;
    }
    if (at === 0 || setting === '') throw usageError(`expected key=value, got '${setting}'`);
    const value = settings[i + 1];
    if (value === undefined) throw usageError(`expected key=value, got '${setting}' with no value after it`);
    pairs.push([setting, value]);
    i++;
  }
  return pairs;
}

function typedValue(key: string, text: string, currentValue: unknown): unknown {
  switch (typeof currentValue) {
    case 'number':
      if (!/^-?[0-9]+(\.[0-9]+)?$/.test(text)) throw usageError(`config key '${key}' takes a number, got '${text}'`);
      if (!numberKeepsValue(text)) throw usageError(`config key '${key}' takes a number, got '${text}', which JSON would not carry exactly`);
      return Number(text);
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw usageError(`config key '${key}' takes true or false, got '${text}'`);
      return text === 'true';
    case 'object': {
      if (currentValue === null) return text;
      // Read with each number's literal kept, so that a number JSON.stringify would change is caught here.
      let json: JsonValue;
      try {
        json = readJson(text, STORED_TEXT_JSON);
      } catch {
        throw usageError(`config key '${key}' takes a JSON ${Array.isArray(currentValue) ? 'array' : 'object'}, got '${text}'`);
      }
      return exactPlain(json, key, (at) => {
        throw usageError(`config key '${key}' has a number at ${at} that JSON would not carry exactly`);
      });
    }
    default:
      return text;
  }
}
