import type { AddAssetCommand, AddSymbolCommand } from '../core/types.js';

/** The demo catalogue of area A §10: every asset precision 8. */
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

/** What the demo user holds on first start (operator.md: at least 10 BTC, 100 ETH, 1000000 USDT). */
export const DEMO_BALANCES: readonly [string, string][] = [
  ['BTC', '10'],
  ['ETH', '100'],
  ['USDT', '1000000'],
  ['MXN', '1000000'],
  ['USD', '1000000'],
  ['EUR', '1000000'],
];

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
