import { parseDecimal } from '../../src/core/decimal.js';

/** A taker fill as the new-order reply told it. */
export interface AckedFill {
  tradeId: string;
  price: string;
  qty: string;
}

/** What the server has acknowledged about one order, merged over all its 200 replies. */
export interface AckedOrder {
  trader: string;
  orderId: string;
  symbol: string;
  status: string;
  executedQty: string;
  fills: AckedFill[];
  /** Round of the latest acknowledgement. */
  round: number;
}

/** The fields of an order record (docs/spot-api.md "Orders") the checks rely on. */
export interface OrderRecord {
  orderId: string;
  symbol: string;
  status: string;
  executedQty: string;
  fills?: AckedFill[];
}

const FINAL_STATUSES = new Set(['FILLED', 'CANCELED', 'REJECTED']);

export function isFinalStatus(status: string): boolean {
  return FINAL_STATUSES.has(status);
}

/** How far an order has come: a later state of the same order never ranks lower. */
export function statusRank(status: string): number {
  if (isFinalStatus(status)) return 2;
  return status === 'NEW' ? 0 : 1;
}

/** Exact quantity of a decimal string (atto units). */
export function qtyAtto(text: string): bigint {
  const atto = parseDecimal(text);
  if (atto === null) throw new Error(`not a decimal quantity: ${text}`);
  return atto;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFill(value: unknown): value is AckedFill {
  return isRecord(value) && typeof value.tradeId === 'string' && typeof value.price === 'string' && typeof value.qty === 'string';
}

/** An order record from a 200 reply; a malformed one is a failure of the server, not of the load. */
export function asOrderRecord(value: unknown): OrderRecord {
  if (
    !isRecord(value) ||
    typeof value.orderId !== 'string' ||
    typeof value.symbol !== 'string' ||
    typeof value.status !== 'string' ||
    typeof value.executedQty !== 'string' ||
    (value.fills !== undefined && !(Array.isArray(value.fills) && value.fills.every(isFill)))
  ) {
    throw new Error(`not an order record: ${JSON.stringify(value)}`);
  }
  return value as unknown as OrderRecord;
}

/**
 * Every order and trade a client was told about with a 200. Requests in flight when a server died
 * have no answer and are not here: their outcome is unknown, either way is correct.
 */
export class AckLog {
  readonly orders = new Map<string, AckedOrder>();
  /** Contradictions between two acknowledgements of one order (e.g. FILLED, then CANCELED). */
  readonly conflicts: string[] = [];
  /** Commands answered 200 (orders, cancels, cancel-alls). */
  commands = 0;

  record(trader: string, round: number, record: OrderRecord): void {
    const key = `${trader}:${record.orderId}`;
    const known = this.orders.get(key);
    const fills = record.fills ?? [];
    if (known === undefined) {
      this.orders.set(key, { trader, orderId: record.orderId, symbol: record.symbol, status: record.status, executedQty: record.executedQty, fills: [...fills], round });
      return;
    }
    if (isFinalStatus(known.status) && isFinalStatus(record.status) && known.status !== record.status) {
      this.conflicts.push(`${trader} order ${record.orderId} acknowledged ${known.status}, then ${record.status}`);
    }
    if (statusRank(record.status) > statusRank(known.status)) known.status = record.status;
    if (qtyAtto(record.executedQty) > qtyAtto(known.executedQty)) known.executedQty = record.executedQty;
    for (const fill of fills) if (!known.fills.some((f) => f.tradeId === fill.tradeId)) known.fills.push(fill);
    known.round = round;
  }

  /** Acknowledged taker fills in all. */
  get fillCount(): number {
    let count = 0;
    for (const order of this.orders.values()) count += order.fills.length;
    return count;
  }
}
