import type { SymbolSpec } from '../engine/symbol-spec.js';

/** One `T` per symbol spec, made when first asked for: what is derived from a spec's sizes and filters, which never change. */
export function perSpec<T>(make: (spec: SymbolSpec) => T): (spec: SymbolSpec) => T {
  const bySpec = new WeakMap<SymbolSpec, T>();
  return (spec) => {
    let value = bySpec.get(spec);
    if (value === undefined) {
      value = make(spec);
      bySpec.set(spec, value);
    }
    return value;
  };
}
