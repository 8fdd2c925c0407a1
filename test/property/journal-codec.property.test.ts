import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CancelOrderCommand, Command, PlaceOrderCommand, StampedCommand } from '../../src/core/types.js';
import { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { ChunkReader, ChunkWriter } from '../../src/store/journal-chunk.js';
import { decodeJournalRecord, journalRecordOf, type JournalRecord } from '../../src/store/journal-codec.js';
import { isFrameText } from '../../src/store/journal-frame.js';

const RUNS = { numRuns: 1_000, seed: 20_261_129 } as const;

/** Every command type the core applies. */
const COMMAND_TYPES = new ExchangeCore().modules.flatMap((module) => module.commandTypes);

const digits = (minLength: number, maxLength: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });
/** Decimal text as a client sends it, leading and trailing zeros kept ("0.10"). */
const decimalText = fc.tuple(digits(1, 12), fc.option(digits(1, 10), { nil: undefined })).map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));
/** Mostly ASCII (framed); sometimes any text, long or not (the command then goes as JSON). */
const text = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 40 }) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) });
const amount = fc.oneof({ weight: 4, arbitrary: decimalText }, { weight: 1, arbitrary: text });
/** Numbers as JSON carries them (no -0, NaN or infinities: JSON has none). */
const number = fc.oneof(fc.nat(), fc.maxSafeNat(), fc.integer({ min: -1_000, max: 1_000 }), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)));
const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined });

/** The command without its undefined fields: what an absent field is. */
function present<T extends object>(command: T): T {
  return Object.fromEntries(Object.entries(command).filter(([, value]) => value !== undefined)) as T;
}

const placeOrder: fc.Arbitrary<Command> = fc
  .record({
    accountId: number,
    symbol: fc.oneof(fc.constantFrom('BTCUSDT', 'ETHBTC'), text),
    side: fc.constantFrom('BUY', 'SELL'),
    orderType: fc.constantFrom('LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'),
    timeInForce: fc.constantFrom('GTC', 'IOC', 'FOK'),
    quantity: amount,
    price: optional(amount),
    stopPrice: optional(amount),
    icebergQty: optional(amount),
    clientOrderId: optional(text),
    timestamp: optional(number),
    recvWindow: optional(number),
    test: optional(fc.boolean()),
  })
  .map((fields) => present<PlaceOrderCommand>({ type: 'placeOrder', ...fields }));

const cancelOrder: fc.Arbitrary<Command> = fc
  .record({ accountId: number, orderId: optional(number), clientOrderId: optional(text) })
  .map((fields) => present<CancelOrderCommand>({ type: 'cancelOrder', ...fields }));

/** Any other type, with JSON fields of any shape: the codec does not look inside them. */
const otherCommand: fc.Arbitrary<Command> = fc
  .tuple(
    fc.constantFrom(...COMMAND_TYPES.filter((type) => type !== 'placeOrder' && type !== 'cancelOrder')),
    fc.dictionary(fc.string().filter((key) => key !== 'type' && key !== '__proto__'), fc.jsonValue().filter((value) => !Object.is(value, -0))),
  )
  .map(([type, fields]) => ({ ...fields, type }) as unknown as Command);

const anyCommand = fc.oneof(placeOrder, cancelOrder, otherCommand);

/** The row as written before frames: JSON text whatever the command. */
function jsonRecordOf(stamped: StampedCommand): JournalRecord {
  return { seq: stamped.seq, ts: stamped.ts, type: stamped.command.type, payload: JSON.stringify(stamped.command) };
}

function expectSame(back: Command, sent: Command): void {
  expect(back).toStrictEqual(sent);
  expect(Object.keys(back).sort()).toEqual(Object.keys(sent).sort());
}

/** Rows through a chunk, as the reading thread hands them to the replay. */
function throughChunk(records: JournalRecord[]): StampedCommand[] {
  const writer = new ChunkWriter(64);
  for (const record of records) writer.add(record);
  const reader = new ChunkReader(records[0].seq - 1);
  reader.load(writer.take());
  const back: StampedCommand[] = [];
  for (let stamped = reader.next(); stamped !== undefined; stamped = reader.next()) back.push(stamped);
  return back;
}

describe('journal codec round trip', () => {
  it('covers every command type the core applies', () => {
    expect(COMMAND_TYPES).toContain('placeOrder');
    expect(COMMAND_TYPES).toContain('cancelOrder');
    expect(COMMAND_TYPES.length).toBeGreaterThan(40);
  });

  it('frames most of the hot commands generated (the rest go as JSON)', () => {
    const hot = fc.sample(fc.oneof(placeOrder, cancelOrder), { numRuns: 500, seed: RUNS.seed });
    const framed = hot.filter((command) => isFrameText(journalRecordOf({ seq: 1, ts: 1, command }).payload));
    expect(framed.length).toBeGreaterThan(hot.length / 2);
    expect(framed.length).toBeLessThan(hot.length);
  });

  it('when any command is stored (framed or as JSON) or was stored as JSON before frames, then it reads back exactly: same keys, same values, strings as sent', () => {
    fc.assert(
      fc.property(anyCommand, (command) => {
        const stamped: StampedCommand = { seq: 11, ts: 1_700_000_000_000, command };
        for (const record of [journalRecordOf(stamped), jsonRecordOf(stamped)]) {
          const back = decodeJournalRecord(record, 10);
          expect([back.seq, back.ts]).toEqual([11, 1_700_000_000_000]);
          expectSame(back.command, command);
        }
      }),
      RUNS,
    );
  });

  it('when rows of any commands, JSON or framed, go through a chunk, then the same commands come out in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(anyCommand, fc.boolean()), { minLength: 1, maxLength: 30 }), fc.nat({ max: 1e9 }), (commands, afterSeq) => {
        const records = commands.map(([command, framed], i) => {
          const stamped = { seq: afterSeq + 1 + i, ts: 1_700_000_000_000 + i, command };
          return framed ? journalRecordOf(stamped) : jsonRecordOf(stamped);
        });
        const back = throughChunk(records);
        expect(back.map((stamped) => [stamped.seq, stamped.ts])).toEqual(records.map((record) => [record.seq, record.ts]));
        back.forEach((stamped, i) => expectSame(stamped.command, commands[i][0]));
      }),
      RUNS,
    );
  });
});

describe('journal chunks', () => {
  const order = (seq: number): StampedCommand => ({ seq, ts: seq, command: { type: 'cancelOrder', accountId: 1, orderId: seq } });

  it('when a seq is missing between rows, then reading the chunk stops at the gap', () => {
    expect(() => throughChunk([journalRecordOf(order(1)), jsonRecordOf(order(3))])).toThrow(/journal gap: seq 3 follows 1/);
  });

  it('when a row says another type than its payload, then the reading side refuses it, JSON or frame', () => {
    for (const record of [jsonRecordOf(order(1)), journalRecordOf(order(1))]) {
      expect(() => throughChunk([{ ...record, type: 'placeOrder' }])).toThrow(/cancelOrder/);
    }
  });

  it('when a stored frame holds a character outside ASCII, then the reading side refuses it', () => {
    const record = journalRecordOf(order(1));
    expect(() => throughChunk([{ ...record, payload: `${record.payload}\u00e9` }])).toThrow(/character 233/);
  });
});
