import type { AddAssetCommand, AddSymbolCommand } from '../core/types.js';
import type { MarketMakerSymbol } from './symbol-grid.js';

/** The demo catalogue of docs/operating.md "Demo data": every asset precision 8. */
export const DEMO_ASSETS: readonly AddAssetCommand[] = [
  crypto('BTC', 'Bitcoin', ['BTC'], '0.0005', '0.001'),
  crypto('ETH', 'Ethereum', ['ETH'], '0.005', '0.01'),
  crypto('USDT', 'Tether USD', ['TRC20', 'ERC20', 'BEP20', 'POL'], '1', '10'),
  fiat('MXN', 'Mexican Peso'),
  fiat('USD', 'US Dollar'),
  fiat('EUR', 'Euro'),
];

export const DEMO_SYMBOLS: readonly AddSymbolCommand[] = [
  symbol('BTCUSDT', 'BTC', 'USDT', '0.01', '0.000001', '1', '10000000', '1000'),
  symbol('ETHUSDT', 'ETH', 'USDT', '0.01', '0.0001', '1', '1000000', '10000'),
  symbol('ETHBTC', 'ETH', 'BTC', '0.00001', '0.001', '0.0001', '1000', '10000'),
  symbol('USDTMXN', 'USDT', 'MXN', '0.0001', '0.01', '10', '10000', '10000000'),
  symbol('BTCMXN', 'BTC', 'MXN', '0.01', '0.000001', '10', '100000000', '1000'),
  symbol('USDTUSD', 'USDT', 'USD', '0.0001', '0.01', '1', '100', '10000000'),
  symbol('USDTEUR', 'USDT', 'EUR', '0.0001', '0.01', '1', '100', '10000000'),
];

/** What the demo user holds on first start (docs/operating.md "Demo data": at least 10 BTC, 100 ETH, 1000000 USDT). */
export const DEMO_BALANCES: readonly [string, string][] = [
  ['BTC', '10'],
  ['ETH', '100'],
  ['USDT', '1000000'],
  ['MXN', '1000000'],
  ['USD', '1000000'],
  ['EUR', '1000000'],
];

/** What the demo market maker holds on first start: enough for every ladder many times over. */
export const DEMO_MARKET_MAKER_BALANCES: readonly [string, string][] = [
  ['BTC', '1000'],
  ['ETH', '20000'],
  ['USDT', '100000000'],
  ['MXN', '1000000000'],
  ['USD', '1000000000'],
  ['EUR', '1000000000'],
];

/** The demo market maker's seed: a fixed one, so every demo install shows the same market. */
export const DEMO_MARKET_MAKER_SEED = 20_240_601;

/** Where each demo book starts and how deep one of its levels is (mean base quantity). */
const DEMO_MARKETS: Readonly<Record<string, { referencePrice: string; levelQuantity: string }>> = {
  BTCUSDT: { referencePrice: '60000', levelQuantity: '0.2' },
  ETHUSDT: { referencePrice: '3000', levelQuantity: '3' },
  ETHBTC: { referencePrice: '0.05', levelQuantity: '3' },
  USDTMXN: { referencePrice: '17.5', levelQuantity: '10000' },
  BTCMXN: { referencePrice: '1050000', levelQuantity: '0.2' },
  USDTUSD: { referencePrice: '1', levelQuantity: '10000' },
  USDTEUR: { referencePrice: '0.92', levelQuantity: '10000' },
};

/** Every demo symbol with its filters and its market, as the demo market maker quotes it. */
export const DEMO_MARKET_MAKER_SYMBOLS: readonly MarketMakerSymbol[] = DEMO_SYMBOLS.map((s) => {
  const market = DEMO_MARKETS[s.symbol];
  if (market === undefined) throw new Error(`demo symbol ${s.symbol} has no market maker reference price`);
  return {
    symbol: s.symbol,
    tickSize: s.tickSize,
    stepSize: s.stepSize,
    minPrice: s.minPrice,
    maxPrice: s.maxPrice,
    minQty: s.minQty,
    maxQty: s.maxQty,
    minNotional: s.minNotional,
    ...market,
  };
});

function crypto(asset: string, fullName: string, chains: string[], withdrawFee: string, minWithdraw: string): AddAssetCommand {
  return { type: 'addAsset', asset, precision: 8, kind: 'crypto', fullName, chains, withdrawFee, minWithdraw, allowDeposit: true, allowWithdraw: true };
}

function fiat(asset: string, fullName: string): AddAssetCommand {
  return { type: 'addAsset', asset, precision: 8, kind: 'fiat', fullName, chains: [], withdrawFee: '0', minWithdraw: '0', allowDeposit: false, allowWithdraw: false };
}

function symbol(
  name: string,
  baseAsset: string,
  quoteAsset: string,
  tickSize: string,
  stepSize: string,
  minNotional: string,
  maxPrice: string,
  maxQty: string,
): AddSymbolCommand {
  return { type: 'addSymbol', symbol: name, baseAsset, quoteAsset, tickSize, stepSize, minPrice: tickSize, maxPrice, minQty: stepSize, maxQty, minNotional };
}
