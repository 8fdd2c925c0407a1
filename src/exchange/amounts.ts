import { attoToUnits, parseDecimal } from '../core/decimal.js';
import { BourseError, reject } from '../core/errors.js';
import type { AssetSpec } from '../ledger/asset.js';

/** A positive amount of an asset in atoms; -1130 when malformed, zero or beyond the asset's precision. */
export function positiveAtoms(text: string, asset: AssetSpec, param: string): bigint {
  const atto = parseDecimal(text);
  const atoms = atto === null ? null : attoToUnits(atto, asset.precision);
  if (atoms === null || atoms <= 0n) throw new BourseError('INVALID_PARAM_VALUE', [param]);
  return atoms;
}

/** A decimal parameter of a catalogue command in atto; -1130 when malformed. */
export function decimalOrReject(text: string, param: string): bigint {
  return parseDecimal(text) ?? reject('INVALID_PARAM_VALUE', [param]);
}
