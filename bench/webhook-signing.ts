/**
 * The ceiling of the webhooks benchmark: how many webhook bodies one core signs a second, as the
 * server signs them (docs/webhooks.md "Verifying the signature": RSASSA-PKCS1-v1_5, SHA-256, with the
 * deployment's own RSA-2048 key), measured on this process's main thread, one signature at a time.
 */

import { sign, type KeyObject } from 'node:crypto';
import { elapsedNs } from './stats.js';

/** A stand-in body until real ones are received: an on-ramp order event of docs/webhooks.md "What is sent", field for field. */
const STAND_IN_BODY = JSON.stringify({
  webhookId: '0123456789abcdef0123456789abcdef',
  eventId: '0123456789abcdef0123456789abcdef',
  eventType: 'ORDER_WEBHOOK',
  orderId: '10000042',
  clientId: '',
  userId: '100042',
  merchantId: 42,
  orderType: 'BUY',
  fiat: 'MXN',
  fiatAmount: '1000.00',
  fiatFee: '20.00',
  crypto: 'USDT',
  cryptoAmount: '51.8586',
  orderPrice: '19.1680',
  orderStatus: '60',
  failCode: 0,
  failReason: '',
  createTime: '1764390000000',
  updateTime: '1764390000123',
});

/** Signatures made, the wall time they took and the CPU time this process used meanwhile. */
export interface SigningTally {
  signatures: number;
  seconds: number;
  cpuSeconds: number;
}

/** Signs `bodies` in turn on this thread for `seconds` (the body a signature is over does not change its cost). */
export function signFor(privateKey: KeyObject, bodies: readonly Buffer[], seconds: number): SigningTally {
  const samples = bodies.length > 0 ? bodies : [Buffer.from(STAND_IN_BODY, 'utf8')];
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const endNs = 1e9 * seconds;
  let signatures = 0;
  // Checked every 16 signatures: reading the clock is cheap beside an RSA-2048 signature, but not free.
  while (signatures % 16 !== 0 || elapsedNs(started) < endNs) {
    sign('sha256', samples[signatures % samples.length], privateKey);
    signatures++;
  }
  const used = process.cpuUsage(cpu);
  return { signatures, seconds: elapsedNs(started) / 1e9, cpuSeconds: (used.user + used.system) / 1e6 };
}
