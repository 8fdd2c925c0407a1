import { describe, expect, it } from 'vitest';
import type { CancelOrderCommand, Command, PlaceOrderCommand } from '../../../src/core/types.js';
import { decodeJournalRecord, journalRecordOf } from '../../../src/store/journal-codec.js';
import { decodeCommandFrame, encodeCommandFrame, isFrameText } from '../../../src/store/journal-frame.js';

const limitBuy: PlaceOrderCommand = {
  type: 'placeOrder',
  accountId: 7,
  symbol: 'BTCUSDT',
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  quantity: '0.10',
  price: '101.250',
  timestamp: 1_700_000_000_123,
  recvWindow: 5000,
};

function frameOf(command: Command): string {
  const frame = encodeCommandFrame(command);
  if (frame === undefined) throw new Error(`no frame for ${command.type}`);
  return frame;
}

describe('journal frames', () => {
  it('when a limit order is framed, then it comes back with the same keys and the strings as sent, in under half its JSON', () => {
    const frame = frameOf(limitBuy);
    const back = decodeCommandFrame(frame);
    expect(back).toStrictEqual(limitBuy);
    expect(Object.keys(back).sort()).toEqual(Object.keys(limitBuy).sort());
    expect((back as PlaceOrderCommand).quantity).toBe('0.10');
    expect(frame.length).toBeLessThan(JSON.stringify(limitBuy).length / 2);
  });

  it('when a frame is stored, then it is printable ASCII after its tag: valid text on both stores, never taken for JSON', () => {
    const frame = frameOf(limitBuy);
    expect(frame.charCodeAt(0)).toBe(1);
    expect(frame.slice(1)).toMatch(/^[ -~]+$/);
    expect([isFrameText(frame), isFrameText(JSON.stringify(limitBuy))]).toEqual([true, false]);
  });

  it('when optional fields are absent or present, then exactly those come back (test false stays false)', () => {
    const market: PlaceOrderCommand = { type: 'placeOrder', accountId: 1, symbol: 'ETHBTC', side: 'SELL', orderType: 'MARKET', timeInForce: 'IOC', quantity: '3' };
    const algo: PlaceOrderCommand = { ...market, orderType: 'STOP_LOSS_LIMIT', price: '1', stopPrice: '0.9', icebergQty: '1.0', clientOrderId: 'my-id_1', test: false };
    for (const command of [market, algo, { ...algo, test: true }]) expect(decodeCommandFrame(frameOf(command))).toStrictEqual(command);
  });

  it('when a cancel names the order by id or by client id, or numbers are large, negative or fractional, then the same come back', () => {
    const cancels: CancelOrderCommand[] = [
      { type: 'cancelOrder', accountId: 3, orderId: 42 },
      { type: 'cancelOrder', accountId: 3, clientOrderId: 'abc' },
      { type: 'cancelOrder', accountId: 3, orderId: 2 ** 53 - 1, clientOrderId: '' },
      { type: 'cancelOrder', accountId: -1, orderId: 1.5e-7 },
      { type: 'cancelOrder', accountId: 1e21, orderId: 0 },
    ];
    for (const command of cancels) expect(decodeCommandFrame(frameOf(command))).toStrictEqual(command);
  });

  it('when a command cannot be framed exactly, then it has no frame and its row is JSON text', () => {
    const unframed: Command[] = [
      { type: 'deposit', accountId: 1, asset: 'USDT', amount: '1', txId: 't' },
      { ...limitBuy, clientOrderId: 'naïve' },
      { ...limitBuy, clientOrderId: 'tab\there' },
      { ...limitBuy, symbol: 'X'.repeat(95) },
      { ...limitBuy, extra: 1 } as PlaceOrderCommand,
      { ...limitBuy, side: 'buy' } as unknown as PlaceOrderCommand,
      { ...limitBuy, price: 101 } as unknown as PlaceOrderCommand,
      { type: 'cancelOrder', accountId: -0, orderId: 1 },
    ];
    for (const command of unframed) {
      expect(encodeCommandFrame(command)).toBeUndefined();
      const record = journalRecordOf({ seq: 1, ts: 2, command });
      expect(record.payload).toBe(JSON.stringify(command));
      expect(decodeJournalRecord(record, 0).command).toStrictEqual(JSON.parse(JSON.stringify(command)));
    }
  });

  it('when a frame is truncated, has characters left over, an unknown tag or a corrupt field, then decoding throws', () => {
    const frame = frameOf(limitBuy);
    expect(() => decodeCommandFrame(frame.slice(0, -1))).toThrow(/truncated/);
    expect(() => decodeCommandFrame(`${frame}x`)).toThrow(/1 bytes after/);
    expect(() => decodeCommandFrame(`\x09${frame.slice(1)}`)).toThrow(/unknown tag 9/);
    // Tag, two presence characters, the account id (length and "7"), the symbol (length and 7 characters), then the side.
    const sideAt = 1 + 2 + 2 + 8;
    expect(() => decodeCommandFrame(`${frame.slice(0, sideAt)}7${frame.slice(sideAt + 1)}`)).toThrow(/enum value 7/);
    expect(() => decodeCommandFrame(`${frame.slice(0, 4)}x${frame.slice(5)}`)).toThrow(/"x" is not a number/);
    expect(() => decodeCommandFrame(`${frame}\u00e9`)).toThrow(/character 233/);
  });

  it('when a framed row says another type, or a seq is skipped, then the record is refused', () => {
    const record = journalRecordOf({ seq: 5, ts: 9, command: limitBuy });
    expect(isFrameText(record.payload)).toBe(true);
    expect(decodeJournalRecord(record, 4)).toStrictEqual({ seq: 5, ts: 9, command: limitBuy });
    expect(() => decodeJournalRecord({ ...record, type: 'cancelOrder' }, 4)).toThrow(/payload type placeOrder differs from cancelOrder/);
    expect(() => decodeJournalRecord(record, 3)).toThrow(/journal gap: seq 5 follows 3/);
  });

  it('when a row was written as JSON before frames, then it reads back as before', () => {
    const record = { seq: 1, ts: 2, type: 'placeOrder', payload: JSON.stringify(limitBuy) };
    expect(decodeJournalRecord(record, 0).command).toStrictEqual(limitBuy);
  });
});
