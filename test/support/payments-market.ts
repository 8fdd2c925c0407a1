import type { Operator } from './fixtures.js';

/**
 * The book of the worked example of docs/merchant-payments.md "Quotes and orders", made by a market maker of its own through area A:
 * USDTMXN ask 19.1680 / bid 19.1500, USDTUSD ask 1.0010 / bid 0.9990, USDTEUR ask 0.9300 / bid
 * 0.9200, each 50000 USDT deep, so that orders of a story price at the top of the book.
 */
export async function exampleBooks(op: Operator): Promise<void> {
  const maker = await op.member({ USDT: '1000000', MXN: '100000000', USD: '10000000', EUR: '10000000' });
  const levels: [string, 'BUY' | 'SELL', string][] = [
    ['USDTMXN', 'SELL', '19.1680'],
    ['USDTMXN', 'BUY', '19.1500'],
    ['USDTUSD', 'SELL', '1.0010'],
    ['USDTUSD', 'BUY', '0.9990'],
    ['USDTEUR', 'SELL', '0.9300'],
    ['USDTEUR', 'BUY', '0.9200'],
  ];
  for (const [symbol, side, price] of levels) {
    const answer = await maker.client.signed('POST', '/openapi/v1/order', { symbol, side, type: 'LIMIT', timeInForce: 'GTC', price, quantity: '50000' });
    if (answer.status !== 200) throw new Error(`book order ${symbol} ${side} ${price}: ${answer.text}`);
  }
}
