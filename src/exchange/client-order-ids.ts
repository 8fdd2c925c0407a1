/**
 * Every client order id an account ever used (docs/spot-api.md "Client order ids"), kept compact: most orders carry the id
 * generated from their order number, and such an order costs 4 bytes, its owner in a table indexed
 * by order id. Only ids a client chose, and the rare generated `<orderId>-<k>`, are kept as strings.
 */

/** The text a generated plain id can have: an order number, no sign, no leading zero. */
const ORDER_NUMBER = /^[1-9][0-9]{0,15}$/;

export interface ClientOrderIdsImage {
  /** Base64 of one little-endian int32 per order id below `nextOrderId`: see `owners`. */
  owners: string;
  chosen: [number, [string, number][]][];
}

export class ClientOrderIds {
  /**
   * By order id: the owning account when the order's client id is its order number, the account
   * negated when its client id is in `chosen`, 0 where there is no order.
   */
  private owners = new Int32Array(1024);
  /** Per account: client id → order id, for the ids that are not plain order numbers. */
  private readonly chosen = new Map<number, Map<string, number>>();

  /** The order of `accountId` that carries `clientOrderId`, if any ever did. */
  orderIdOf(accountId: number, clientOrderId: string): number | undefined {
    const chosen = this.chosen.get(accountId)?.get(clientOrderId);
    if (chosen !== undefined) return chosen;
    if (!ORDER_NUMBER.test(clientOrderId)) return undefined;
    const orderId = Number(clientOrderId);
    return orderId < this.owners.length && this.owners[orderId] === accountId ? orderId : undefined;
  }

  /**
   * Records a new order's client id: `clientOrderId` when the client chose one (unused: the caller
   * checked), else the generated one of docs/spot-api.md "Client order ids", the order number or `<orderId>-<k>` with the
   * smallest free k ≥ 1. Returns the id.
   */
  assign(accountId: number, orderId: number, clientOrderId?: string): string {
    let id = clientOrderId;
    if (id === undefined) {
      const plain = String(orderId);
      if (this.orderIdOf(accountId, plain) === undefined) {
        this.setOwner(orderId, accountId);
        return plain;
      }
      for (let k = 1; id === undefined; k++) {
        const candidate = `${plain}-${k}`;
        if (this.orderIdOf(accountId, candidate) === undefined) id = candidate;
      }
    }
    let ids = this.chosen.get(accountId);
    if (ids === undefined) {
      ids = new Map();
      this.chosen.set(accountId, ids);
    }
    ids.set(id, orderId);
    this.setOwner(orderId, -accountId);
    return id;
  }

  /** Canonical image of the ids of orders below `nextOrderId`. */
  image(nextOrderId: number): ClientOrderIdsImage {
    const bytes = Buffer.alloc(4 * nextOrderId);
    const known = Math.min(nextOrderId, this.owners.length);
    for (let orderId = 0; orderId < known; orderId++) bytes.writeInt32LE(this.owners[orderId], 4 * orderId);
    const byKey = (a: [string, number], b: [string, number]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    return {
      owners: bytes.toString('base64'),
      chosen: [...this.chosen.entries()].sort((a, b) => a[0] - b[0]).map(([accountId, ids]) => [accountId, [...ids.entries()].sort(byKey)]),
    };
  }

  static fromImage(image: ClientOrderIdsImage): ClientOrderIds {
    const ids = new ClientOrderIds();
    const bytes = Buffer.from(image.owners, 'base64');
    ids.owners = new Int32Array(Math.max(1024, bytes.length / 4));
    for (let orderId = 0; orderId < bytes.length / 4; orderId++) ids.owners[orderId] = bytes.readInt32LE(4 * orderId);
    for (const [accountId, entries] of image.chosen) ids.chosen.set(accountId, new Map(entries));
    return ids;
  }

  /** From a version 1 snapshot, which listed every order's id: the plain ones become owners again. */
  static fromEntries(entries: [number, [string, number][]][]): ClientOrderIds {
    const ids = new ClientOrderIds();
    for (const [accountId, pairs] of entries) {
      for (const [clientOrderId, orderId] of pairs) {
        if (clientOrderId === String(orderId)) ids.setOwner(orderId, accountId);
        else ids.assign(accountId, orderId, clientOrderId);
      }
    }
    return ids;
  }

  private setOwner(orderId: number, owner: number): void {
    if (orderId >= this.owners.length) {
      let length = this.owners.length * 2;
      while (length <= orderId) length *= 2;
      const grown = new Int32Array(length);
      grown.set(this.owners);
      this.owners = grown;
    }
    this.owners[orderId] = owner;
  }
}
