/** Limits the core enforces on orders (area A §10 trading config); changed only by commands. */
export interface CoreLimits {
  maxOpenOrdersPerSymbol: number;
  maxOpenOrdersPerAccount: number;
}

export const DEFAULT_CORE_LIMITS: CoreLimits = {
  maxOpenOrdersPerSymbol: 200,
  maxOpenOrdersPerAccount: 1000,
};
