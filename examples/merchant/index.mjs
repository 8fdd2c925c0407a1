// Bourse merchant example: one on-ramp order (MXN → USDT) from quote to settlement, followed through
// signed webhooks. Plain Node 20, no dependencies:
//
//   node examples/merchant/index.mjs
//
// Environment: BOURSE_URL (default http://127.0.0.1:8080); the merchant's API key from
// BOURSE_API_KEY + BOURSE_SECRET_KEY (+ optional BOURSE_MERCHANT_ID), or else the demo merchant's
// from <BOURSE_DATA>/demo-credentials.json (BOURSE_DATA defaults to ./data, where `npm start` keeps it);
// EXAMPLE_TIMEOUT_MS (default 60000).
// Exits 0 once the order's status 60 (released) has arrived as a verified webhook, 1 otherwise.
// The user's ORDER_WEBHOOK is left as it was found: one that already existed is pointed here for the
// run and put back at the end (Ctrl-C included), one registered here is deleted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { BourseError, connect } from './bourse.mjs';
import { startReceiver } from './webhook-receiver.mjs';

const BASE_URL = (process.env.BOURSE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const FIAT_AMOUNT = '1000.00'; // MXN; orders take 100.00 to 1000000.00, with exactly 2 decimals
const SPEI = 58; // the MXN bank rail; GET /v2/base/buy/payments lists the rails and their fees
// For the whole run. The sandbox decides and delivers in milliseconds; the wait is for a fresh
// `npm start` whose market maker has not filled the book yet.
const TIMEOUT_MS = Number(process.env.EXAMPLE_TIMEOUT_MS || 60_000);
const deadline = Date.now() + TIMEOUT_MS;

const STATUS_NAMES = {
  10: 'pending review',
  11: 'information requested',
  12: 'information uploaded',
  30: 'awaiting confirm',
  31: 'documents requested',
  40: 'awaiting pay-in',
  50: 'paid',
  60: 'released',
  70: 'canceled',
};

function log(step, text) {
  process.stdout.write(`${step.padEnd(9)} ${text}\n`);
}

const fail = (text) => process.stderr.write(`${text}\n`);

const time = (ms) => new Date(Number(ms)).toISOString();

/** The API key: from the environment, else the demo merchant's from the data directory. */
function credentials() {
  const { BOURSE_API_KEY, BOURSE_SECRET_KEY, BOURSE_MERCHANT_ID } = process.env;
  if (BOURSE_API_KEY && BOURSE_SECRET_KEY) {
    return { apiKey: BOURSE_API_KEY, secretKey: BOURSE_SECRET_KEY, merchantId: BOURSE_MERCHANT_ID || '', source: 'BOURSE_API_KEY' };
  }
  const file = path.join(process.env.BOURSE_DATA || 'data', 'demo-credentials.json');
  let demo;
  try {
    demo = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`no credentials: set BOURSE_API_KEY and BOURSE_SECRET_KEY, or BOURSE_DATA to the data directory of a Bourse started with its demo data (${error.message})`);
  }
  // The file also holds the demo spot user's key (apiKey); only a merchant-type user may use /v2.
  return { apiKey: demo.merchantApiKey, secretKey: demo.merchantSecretKey, merchantId: BOURSE_MERCHANT_ID || demo.merchantId || '', source: file };
}

// Verified events, in arrival order, shared by the receiver (which adds) and the flow (which waits).
const events = [];

function onEvent(event) {
  events.push(event);
  const status = Number(event.orderStatus);
  const failure = event.failCode !== 0 ? `, failCode ${event.failCode} ${event.failReason}` : '';
  log('event', `order ${event.orderId} status ${status} (${STATUS_NAMES[status] ?? '?'}${failure}), signature verified, event ${event.eventId}`);
}

const statusesOf = (orderId) => events.filter((e) => e.orderId === String(orderId)).map((e) => Number(e.orderStatus));

/** Waits until the order's `status` has arrived as a webhook; an order canceled on the way is a failure. */
async function waitForStatus(orderId, status) {
  while (!statusesOf(orderId).includes(status)) {
    const canceled = events.find((e) => e.orderId === String(orderId) && e.orderStatus === '70');
    if (canceled) throw new Error(`order ${orderId} was canceled (status 70, ${canceled.failReason}) before reaching ${status}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${TIMEOUT_MS / 1000} s waiting for status ${status} of order ${orderId}`);
    await sleep(50);
  }
}

/**
 * B36 registers the receiver for ORDER_WEBHOOK. There is one webhook per event type and user, so
 * after an earlier registration (this example's, your own, or a running `bourse webhooks receive`)
 * B36 answers -1174 with its webhookId. This run then borrows that webhook: B38 points it here
 * (and enables it), which takes the user's order events away from wherever they went, so the log
 * says so, and `release` puts the URL and status back when the run ends.
 */
async function borrowWebhook(bourse, url) {
  try {
    const hook = await bourse.call('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url });
    log('webhook', `ORDER_WEBHOOK ${hook.webhookId} registered for ${url}; deleted when this run ends`);
    return { hook, release: () => deleteWhenSettled(bourse, hook.webhookId) };
  } catch (error) {
    if (!(error instanceof BourseError && error.code === -1174)) throw error;
    const { webhookId } = error.data;
    const previous = (await bourse.call('GET', '/v2/webhooks')).find((h) => h.webhookId === webhookId);
    const hook = await bourse.call('PUT', `/v2/webhook/${webhookId}`, { url, status: 10 });
    log('webhook', `ORDER_WEBHOOK ${webhookId} already registered for ${previous.url} (status ${previous.status}): moved here for this run; that receiver gets no order events until the run ends and puts it back`);
    const release = async () => {
      await bourse.call('PUT', `/v2/webhook/${webhookId}`, { url: previous.url, status: previous.status });
      log('webhook', `ORDER_WEBHOOK ${webhookId} put back to ${previous.url} (status ${previous.status})`);
    };
    return { hook, release };
  }
}

/**
 * Deletes the webhook this run registered, so no later event goes to a receiver that is gone. First
 * it waits (a few seconds at most) until none of its events is still pending: the last reply may be
 * on its way to being recorded, and a delete would end that event as failed.
 */
async function deleteWhenSettled(bourse, webhookId) {
  for (let i = 0; i < 50; i++) {
    const pending = await bourse.call('GET', '/v2/webhook/events', { webhookId, status: 'PENDING', pageSize: 1 });
    if (pending.total === 0) break;
    await sleep(100);
  }
  await bourse.call('DELETE', `/v2/webhook/${webhookId}`);
  log('webhook', `ORDER_WEBHOOK ${webhookId} deleted`);
}

/**
 * B22 with createQuoteId: a price for this amount, locked for the order that uses it (10 s, once).
 * -5027 means no price: the USDTMXN book has no sellers, as right after `npm start` while the demo
 * market maker fills it, so that one is waited out.
 */
async function lockQuote(bourse) {
  for (let waited = false; ; waited = true) {
    try {
      return await bourse.call('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'MXN', to: 'USDT', amount: FIAT_AMOUNT, createQuoteId: 'true' });
    } catch (error) {
      if (!(error instanceof BourseError && error.code === -5027)) throw error;
      if (Date.now() > deadline) {
        throw new Error('no MXN → USDT price: the USDTMXN book has no asks. Start Bourse with its demo market maker (the default of `npm start`) or place sell orders on USDTMXN');
      }
      if (!waited) log('quote', 'no price yet (the USDTMXN book is empty); waiting for the demo market maker');
      await sleep(1000);
    }
  }
}

async function main(state) {
  const { apiKey, secretKey, merchantId, source } = credentials();
  log('start', `Bourse at ${BASE_URL}, key from ${source}`);

  // 1. A token (B0), signed with the key's secret; every later call sends it as X-BH-TOKEN.
  const bourse = await connect(BASE_URL, apiKey, secretKey);
  state.bourse = bourse;
  log('token', `issued, valid until ${time(bourse.expireTime)}`);

  // 2. The receiver listens before the webhook is registered, so no event finds it missing.
  state.receiver = await startReceiver({ onEvent, log: (text) => log('webhook', text) });
  log('receiver', `listening on ${state.receiver.url}`);
  const { hook, release } = await borrowWebhook(bourse, state.receiver.url);
  state.release = release;
  // The key that signs every event, the same for all webhooks of this Bourse.
  state.receiver.setPublicKey(hook.publicKey);

  // 3. A locked quote, just before the order that uses it (it lives 10 s).
  const quote = await lockQuote(bourse);
  log('quote', `${FIAT_AMOUNT} MXN buys USDT at ${quote.price} USDT per MXN, locked until ${time(quote.expireTime)} (quote ${quote.quoteId})`);

  // 4. The on-ramp order: the customer pays MXN by SPEI, the merchant gets USDT. clientId is the
  //    merchant's own order id: resending after a timeout with the same one cannot create a second order.
  const clientId = `example-${Date.now()}`;
  const created = await bourse.call('POST', '/v2/order/fiat_to_crypto', {
    country: 'Mexico',
    fiat: 'MXN',
    crypto: 'USDT',
    fiatAmount: FIAT_AMOUNT,
    paymentId: SPEI,
    quoteId: quote.quoteId,
    clientId,
    ...(merchantId ? { merchantId: Number(merchantId) } : {}), // omitted: the user's first verified merchant
  });
  const orderId = String(created.orderId);
  state.orderId = orderId;
  log('order', `fiat_to_crypto ${orderId} created (clientId ${clientId})`);

  // 5. The order is reviewed (automatically in the sandbox); at 40 it waits for the customer's payment.
  await waitForStatus(orderId, 40);
  const order = await bourse.call('GET', '/v2/order/detail', { orderId, orderType: 'fiat_to_crypto' });
  const where = Object.entries(order.paymentInfo).map(([label, value]) => `${label} ${value}`).join(', ');
  log('pay-in', `customer pays ${order.fiatAmount} MXN by SPEI to ${where}; merchant gets ${order.cryptoAmount} USDT at ${order.orderPrice} MXN/USDT, fee ${order.fiatFee} MXN`);

  // 6. The sandbox plays the customer's bank: the exact amount due arrives with the order as
  //    reference. traceNumber is the bank's tracking id; Bourse takes each one once per merchant.
  const traceNumber = `EXAMPLE-${Date.now()}`;
  log('sandbox', `the customer's bank sends ${order.fiatAmount} MXN with reference ${orderId} (traceNumber ${traceNumber})`);
  const paid = await bourse.call('POST', `/sandbox/v2/orders/${orderId}/pay`, { traceNumber });
  // ORDER_PAID: it matched the order. REFUND would mean the amount differed: back to the pending fund.
  if (paid.result !== 'ORDER_PAID') throw new Error(`the transfer did not pay the order: ${paid.result}`);

  // 7. Paid (50) and released (60) follow at once; 60 means the USDT is in the merchant's account.
  await waitForStatus(orderId, 60);
  log('done', `order ${orderId} released: ${order.cryptoAmount} USDT credited to merchant ${order.merchantId}; statuses received ${statusesOf(orderId).join(', ')}`);
}

/** Puts the webhook back (once, whatever ended the run) and closes the receiver. */
let finished;
function finish(state) {
  finished ??= (async () => {
    await state.release?.().catch((error) => fail(`webhook not put back: ${error.message}`));
    await state.receiver?.close();
  })();
  return finished;
}

const state = {};
// Ctrl-C (or a kill) still puts the webhook back before the program ends.
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.once(signal, () => {
    log('stop', `${signal}: ending the run`);
    // Exits once stdout has taken the last line: the flow itself is still waiting.
    void finish(state).then(() => process.stdout.write('', () => process.exit(code)));
  });
}
let exitCode = 0;
try {
  await main(state);
} catch (error) {
  exitCode = 1;
  fail(`FAILED: ${error.message}`);
  if (state.orderId !== undefined) {
    fail(`         order ${state.orderId}: statuses received by webhook ${statusesOf(state.orderId).join(', ') || 'none'}`);
    // What Bourse says now. An order left in 10 is waiting for a review decision: the sandbox's
    // orderReview mode is probably manual or rfi (GET /sandbox/v2/modes, PUT to set "approve").
    const detail = await state.bourse.call('GET', '/v2/order/detail', { orderId: state.orderId }).catch((e) => ({ orderStatus: `unknown (${e.message})` }));
    const hint = detail.orderStatus === 10 ? '; check the sandbox mode orderReview (GET /sandbox/v2/modes)' : '';
    fail(`         GET /v2/order/detail says status ${detail.orderStatus} (${STATUS_NAMES[detail.orderStatus] ?? '?'})${hint}`);
  }
}
await finish(state);
process.exitCode = exitCode;
