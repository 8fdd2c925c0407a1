/**
 * The compact frame of the hot commands (placeOrder, cancelOrder): a tag, the optional fields
 * present, then the fields in a fixed order: enums as one character, numbers and strings as a
 * length character and their text (a number as `String(n)`, a string exactly as sent, "0.10"
 * stays "0.10"). A frame is about a third of the command's JSON and decodes without a parser.
 * Every character of a frame is ASCII and none is NUL, so the same frame is valid text in the
 * journal's payload column on both stores (SQLite's STRICT TEXT, PostgreSQL's TEXT), where JSON
 * rows (all of them before frames, and every other command) start with `{`, a frame with a
 * control character. A command the frame cannot hold exactly (another type, an unknown key, a
 * string outside printable ASCII or longer than MAX_FIELD_CHARS, an enum value outside the known
 * ones, -0) has no frame and is stored as JSON.
 */

import type { CancelOrderCommand, Command, OrderType, PlaceOrderCommand, Side, TimeInForce } from '../core/types.js';

export const FRAME_PLACE_ORDER = 1;
export const FRAME_CANCEL_ORDER = 2;

/** The command type each frame tag holds. */
export const FRAME_TYPES: Readonly<Record<number, Command['type'] | undefined>> = { [FRAME_PLACE_ORDER]: 'placeOrder', [FRAME_CANCEL_ORDER]: 'cancelOrder' };

const SIDES: readonly Side[] = ['BUY', 'SELL'];
const ORDER_TYPES: readonly OrderType[] = ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];
const TIMES_IN_FORCE: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK'];

/** A field's length is one character, SPACE + length, printable like the field itself. */
const LENGTH_BASE = 0x20;
export const MAX_FIELD_CHARS = 0x7e - LENGTH_BASE;
/** Presence bits are written four to a character, from '@'. */
const BITS_BASE = 0x40;
/** Enum values are digits. */
const ENUM_BASE = 0x30;
/** The largest frame: tag, presence, three enums and at most nine fields at their longest. */
export const MAX_FRAME_CHARS = 1 + 2 + 3 + 9 * (1 + MAX_FIELD_CHARS);

// Optional fields of placeOrder present, one bit each, in frame order.
const PLACE_PRICE = 1;
const PLACE_STOP_PRICE = 2;
const PLACE_ICEBERG_QTY = 4;
const PLACE_CLIENT_ORDER_ID = 8;
const PLACE_TIMESTAMP = 16;
const PLACE_RECV_WINDOW = 32;
const PLACE_TEST = 64;
const PLACE_TEST_TRUE = 128;
const PLACE_KEYS = new Set(['type', 'accountId', 'symbol', 'side', 'orderType', 'timeInForce', 'quantity', 'price', 'stopPrice', 'icebergQty', 'clientOrderId', 'timestamp', 'recvWindow', 'test']);

const CANCEL_ORDER_ID = 1;
const CANCEL_CLIENT_ORDER_ID = 2;
const CANCEL_KEYS = new Set(['type', 'accountId', 'orderId', 'clientOrderId']);

/** Writes bytes (frames, chunks of them) into a buffer that grows as needed. */
export class FrameWriter {
  private buffer: Buffer;
  private view: DataView;
  length = 0;

  constructor(capacityBytes = 1024) {
    this.buffer = Buffer.allocUnsafe(capacityBytes);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, capacityBytes);
  }

  /** Room for `bytes` more. */
  reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.length);
  }

  u8(value: number): void {
    this.buffer[this.length++] = value;
  }

  u32(value: number): void {
    this.view.setUint32(this.length, value, true);
    this.length += 4;
  }

  f64(value: number): void {
    this.view.setFloat64(this.length, value, true);
    this.length += 8;
  }

  /** The characters of `text`, each ASCII, one byte each (room reserved by the caller). */
  chars(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7e) throw new Error(`journal frame: character ${code} at ${i}`);
      this.buffer[this.length++] = code;
    }
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A frame field: its length, then its characters (checked by the caller with `isFieldText`). */
  field(text: string): void {
    this.buffer[this.length++] = LENGTH_BASE + text.length;
    this.chars(text);
  }

  /** The bytes written, in an ArrayBuffer of their own (to transfer). */
  bytes(): ArrayBuffer {
    const bytes = new Uint8Array(this.length);
    bytes.set(this.buffer.subarray(0, this.length));
    return bytes.buffer;
  }

  /** The bytes from `start` on, as text (one character a byte). */
  text(start: number): string {
    return this.buffer.toString('latin1', start, this.length);
  }

  /** Overwrites the u32 at `offset` (a length written after what it counts). */
  patchU32(offset: number, value: number): void {
    this.view.setUint32(offset, value, true);
  }
}

function isFieldText(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_FIELD_CHARS) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/** A number whose text reads back as the same number (JSON's numbers, but -0, which JSON does not keep either). */
function isFieldNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0);
}

/** Whether `command`'s keys are all among `keys`. */
function onlyKeys(command: object, keys: ReadonlySet<string>): boolean {
  for (const key in command) if (!keys.has(key)) return false;
  return true;
}

const optionalText = (value: unknown): boolean => value === undefined || isFieldText(value);
const optionalNumber = (value: unknown): boolean => value === undefined || isFieldNumber(value);

/**
 * Appends `command`'s frame to `out`; false (and nothing written) when the frame cannot hold it
 * exactly: the command is then stored as JSON.
 */
export function writeCommandFrame(command: Command, out: FrameWriter): boolean {
  if (command.type === 'placeOrder') return writePlaceOrder(command, out);
  if (command.type === 'cancelOrder') return writeCancelOrder(command, out);
  return false;
}

function writePresence(bits: number, out: FrameWriter): void {
  out.u8(BITS_BASE + (bits & 15));
  out.u8(BITS_BASE + (bits >> 4));
}

function writePlaceOrder(c: PlaceOrderCommand, out: FrameWriter): boolean {
  const side = SIDES.indexOf(c.side);
  const orderType = ORDER_TYPES.indexOf(c.orderType);
  const timeInForce = TIMES_IN_FORCE.indexOf(c.timeInForce);
  if (side < 0 || orderType < 0 || timeInForce < 0 || !onlyKeys(c, PLACE_KEYS)) return false;
  if (!isFieldNumber(c.accountId) || !isFieldText(c.symbol) || !isFieldText(c.quantity)) return false;
  if (!optionalText(c.price) || !optionalText(c.stopPrice) || !optionalText(c.icebergQty) || !optionalText(c.clientOrderId)) return false;
  if (!optionalNumber(c.timestamp) || !optionalNumber(c.recvWindow) || (c.test !== undefined && typeof c.test !== 'boolean')) return false;
  let present = 0;
  if (c.price !== undefined) present |= PLACE_PRICE;
  if (c.stopPrice !== undefined) present |= PLACE_STOP_PRICE;
  if (c.icebergQty !== undefined) present |= PLACE_ICEBERG_QTY;
  if (c.clientOrderId !== undefined) present |= PLACE_CLIENT_ORDER_ID;
  if (c.timestamp !== undefined) present |= PLACE_TIMESTAMP;
  if (c.recvWindow !== undefined) present |= PLACE_RECV_WINDOW;
  if (c.test !== undefined) present |= c.test ? PLACE_TEST | PLACE_TEST_TRUE : PLACE_TEST;
  out.reserve(MAX_FRAME_CHARS);
  out.u8(FRAME_PLACE_ORDER);
  writePresence(present, out);
  out.field(String(c.accountId));
  out.field(c.symbol);
  out.u8(ENUM_BASE + side);
  out.u8(ENUM_BASE + orderType);
  out.u8(ENUM_BASE + timeInForce);
  out.field(c.quantity);
  if (c.price !== undefined) out.field(c.price);
  if (c.stopPrice !== undefined) out.field(c.stopPrice);
  if (c.icebergQty !== undefined) out.field(c.icebergQty);
  if (c.clientOrderId !== undefined) out.field(c.clientOrderId);
  if (c.timestamp !== undefined) out.field(String(c.timestamp));
  if (c.recvWindow !== undefined) out.field(String(c.recvWindow));
  return true;
}

function writeCancelOrder(c: CancelOrderCommand, out: FrameWriter): boolean {
  if (!onlyKeys(c, CANCEL_KEYS) || !isFieldNumber(c.accountId) || !optionalNumber(c.orderId) || !optionalText(c.clientOrderId)) return false;
  const present = (c.orderId !== undefined ? CANCEL_ORDER_ID : 0) | (c.clientOrderId !== undefined ? CANCEL_CLIENT_ORDER_ID : 0);
  out.reserve(MAX_FRAME_CHARS);
  out.u8(FRAME_CANCEL_ORDER);
  writePresence(present, out);
  out.field(String(c.accountId));
  if (c.orderId !== undefined) out.field(String(c.orderId));
  if (c.clientOrderId !== undefined) out.field(c.clientOrderId);
  return true;
}

const encoder = new FrameWriter(MAX_FRAME_CHARS);

/** `command`'s frame as stored text, or undefined when it is stored as JSON. */
export function encodeCommandFrame(command: Command): string | undefined {
  encoder.length = 0;
  return writeCommandFrame(command, encoder) ? encoder.text(0) : undefined;
}

/** Whether stored payload text is a frame (else it is JSON, which starts with `{`). */
export function isFrameText(payload: string): boolean {
  return payload.charCodeAt(0) < LENGTH_BASE;
}

/**
 * Reads frames (and the chunks around them) from bytes. Every read is bounds-checked against
 * `end`: a truncated or corrupt frame throws instead of reading past it.
 */
export class FrameReader {
  private bytes: Uint8Array;
  private view: DataView;
  offset = 0;
  end = 0;
  /** Recent symbols: a journal names few, and a cached string is no new allocation. */
  private readonly symbols: string[] = [];

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.end = bytes.length;
  }

  /** Reads `bytes` from the start on (the symbols seen stay cached). */
  reset(bytes: Uint8Array, end = bytes.length): void {
    if (bytes !== this.bytes) {
      this.bytes = bytes;
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    this.offset = 0;
    this.end = end;
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.end) throw new Error(`journal frame truncated at byte ${this.offset}`);
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.offset++];
  }

  u32(): number {
    this.need(4);
    const value = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return value;
  }

  f64(): number {
    this.need(8);
    const value = this.view.getFloat64(this.offset, true);
    this.offset += 8;
    return value;
  }

  /** `length` bytes as text, one character each. */
  chars(length: number): string {
    this.need(length);
    const start = this.offset;
    this.offset += length;
    let text = '';
    for (let i = start; i < this.offset; i++) text += String.fromCharCode(this.bytes[i]);
    return text;
  }

  utf8(length: number): string {
    this.need(length);
    const start = this.offset;
    this.offset += length;
    return utf8Decoder.decode(this.bytes.subarray(start, this.offset));
  }

  private fieldLength(): number {
    const length = this.u8() - LENGTH_BASE;
    if (length < 0 || length > MAX_FIELD_CHARS) throw new Error(`journal frame: field length ${length} at byte ${this.offset - 1}`);
    return length;
  }

  private text(): string {
    return this.chars(this.fieldLength());
  }

  /** A number field: short digit runs (most ids and times) summed here, anything else by Number(). */
  private number(): number {
    const length = this.fieldLength();
    this.need(length);
    if (length > 0 && length <= 15) {
      let value = 0;
      let i = this.offset;
      const end = this.offset + length;
      for (; i < end; i++) {
        const digit = this.bytes[i] - 0x30;
        if (digit < 0 || digit > 9) break;
        value = value * 10 + digit;
      }
      if (i === end) {
        this.offset = end;
        return value;
      }
    }
    const text = this.chars(length);
    const value = Number(text);
    if (!isFieldNumber(value) || String(value) !== text) throw new Error(`journal frame: ${JSON.stringify(text)} is not a number's text`);
    return value;
  }

  /** A text field that repeats from frame to frame (a symbol): the cached string when it is there. */
  private symbol(): string {
    const length = this.fieldLength();
    this.need(length);
    const at = this.offset;
    search: for (const cached of this.symbols) {
      if (cached.length !== length) continue;
      for (let i = 0; i < length; i++) if (cached.charCodeAt(i) !== this.bytes[at + i]) continue search;
      this.offset += length;
      return cached;
    }
    const text = this.chars(length);
    if (this.symbols.length === 16) this.symbols.shift();
    this.symbols.push(text);
    return text;
  }

  private presence(): number {
    const low = this.u8() - BITS_BASE;
    const high = this.u8() - BITS_BASE;
    if (low < 0 || low > 15 || high < 0 || high > 15) throw new Error('journal frame: corrupt presence bits');
    return low | (high << 4);
  }

  private enumOf<T>(values: readonly T[]): T {
    const index = this.u8() - ENUM_BASE;
    if (index < 0 || index >= values.length) throw new Error(`journal frame: enum value ${index} out of range`);
    return values[index];
  }

  /** The command of the frame at `offset`, which must end at `end`. */
  command(): Command {
    const tag = this.u8();
    const command = tag === FRAME_PLACE_ORDER ? this.placeOrder() : tag === FRAME_CANCEL_ORDER ? this.cancelOrder() : undefined;
    if (command === undefined) throw new Error(`journal frame: unknown tag ${tag}`);
    if (this.offset !== this.end) throw new Error(`journal frame: ${this.end - this.offset} bytes after the ${command.type}`);
    return command;
  }

  private placeOrder(): PlaceOrderCommand {
    const present = this.presence();
    const accountId = this.number();
    const symbol = this.symbol();
    const side = this.enumOf(SIDES);
    const orderType = this.enumOf(ORDER_TYPES);
    const timeInForce = this.enumOf(TIMES_IN_FORCE);
    const command: PlaceOrderCommand = { type: 'placeOrder', accountId, symbol, side, orderType, timeInForce, quantity: this.text() };
    if ((present & PLACE_PRICE) !== 0) command.price = this.text();
    if ((present & PLACE_STOP_PRICE) !== 0) command.stopPrice = this.text();
    if ((present & PLACE_ICEBERG_QTY) !== 0) command.icebergQty = this.text();
    if ((present & PLACE_CLIENT_ORDER_ID) !== 0) command.clientOrderId = this.text();
    if ((present & PLACE_TIMESTAMP) !== 0) command.timestamp = this.number();
    if ((present & PLACE_RECV_WINDOW) !== 0) command.recvWindow = this.number();
    if ((present & PLACE_TEST) !== 0) command.test = (present & PLACE_TEST_TRUE) !== 0;
    return command;
  }

  private cancelOrder(): CancelOrderCommand {
    const present = this.presence();
    const command: CancelOrderCommand = { type: 'cancelOrder', accountId: this.number() };
    if ((present & CANCEL_ORDER_ID) !== 0) command.orderId = this.number();
    if ((present & CANCEL_CLIENT_ORDER_ID) !== 0) command.clientOrderId = this.text();
    return command;
  }
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

// A stored frame is copied here to be read: no buffer and no reader allocated per frame.
const frameBytes = new Uint8Array(MAX_FRAME_CHARS);
const frameReader = new FrameReader(frameBytes);

/** The command of a stored frame. */
export function decodeCommandFrame(frame: string): Command {
  if (frame.length > MAX_FRAME_CHARS) throw new Error(`journal frame: ${frame.length} characters, more than a frame holds`);
  for (let i = 0; i < frame.length; i++) {
    const code = frame.charCodeAt(i);
    if (code > 0x7e) throw new Error(`journal frame: character ${code} at ${i}`);
    frameBytes[i] = code;
  }
  frameReader.reset(frameBytes, frame.length);
  return frameReader.command();
}
