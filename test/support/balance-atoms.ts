import { attoToUnits, parseDecimal } from '../../src/core/decimal.js';
import type { BalanceAtoms } from '../../src/core/types.js';

/** A balance of a balance event written as decimal text, in atoms at `precision` decimals. */
export function balanceAtoms(asset: string, free: string, locked: string, precision = 8): BalanceAtoms {
  const atoms = (text: string): bigint => {
    const units = attoToUnits(parseDecimal(text) ?? -1n, precision);
    if (units === null || units < 0n) throw new Error(`${text} is not a balance at ${precision} decimals`);
    return units;
  };
  return { asset, free: atoms(free), locked: atoms(locked), precision };
}
