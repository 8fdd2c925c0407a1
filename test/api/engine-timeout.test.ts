/**
 * docs/spot-api.md "Errors" -1007: when the core stays silent past the deadline, the request is answered 504 with
 * "execution status unknown", and the command may still be executed afterwards; a client that
 * queries before resending finds it. The core is held silent by holding back the exchange's
 * submissions, the one way to stall it from outside without stopping the process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../src/core/types.js';
import { Operator, type Member } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ORDER = '/openapi/v1/order';
const DEADLINE_MS = 300;
const TIMEOUT = { code: -1007, msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.' };

describe('A11 when the core is silent', () => {
  let t: TestServer;
  let alice: Member;

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_ENGINE_TIMEOUT_MS: String(DEADLINE_MS) });
    alice = await new Operator(t).member({ USDT: '10000' });
  });
  afterAll(async () => t.stop());

  /**
   * Holds every submission until `release`, which restores the exchange's own submit, passes the
   * held commands on and resolves once the core has settled them.
   */
  function holdSubmissions(): { release: () => Promise<unknown>; held: () => number } {
    const exchange = t.server.exchange;
    const submit = exchange.submit.bind(exchange);
    const queue: (() => Promise<unknown>)[] = [];
    exchange.submit = <T>(command: Command): Promise<T> =>
      new Promise<T>((resolve, reject) => queue.push(() => submit<T>(command).then(resolve, reject)));
    return {
      held: () => queue.length,
      release: () => {
        exchange.submit = submit;
        return Promise.allSettled(queue.map((go) => go()));
      },
    };
  }

  it('when the core answers after the deadline, then the order is answered 504 -1007 and a later query finds it executed', async () => {
    const hold = holdSubmissions();
    const order = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10', newClientOrderId: 'late-1' };
    const answer = await alice.client.signed('POST', ORDER, order);
    expect(answer.status).toBe(504);
    expect(answer.body).toEqual(TIMEOUT);
    expect(hold.held()).toBe(1);

    // Not executed yet: the client's query says so.
    expect((await alice.client.signed('GET', ORDER, { origClientOrderId: 'late-1' })).body).toEqual({ code: -2013, msg: 'Order does not exist.' });
    await hold.release();
    const found = await alice.client.signed('GET', ORDER, { origClientOrderId: 'late-1' });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ clientOrderId: 'late-1', status: 'NEW', price: '10', origQty: '1' });
  });

  it('when the core answers within the deadline, then the order is answered 200', async () => {
    const answer = await alice.client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '11' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'NEW', price: '11' });
  });
});
