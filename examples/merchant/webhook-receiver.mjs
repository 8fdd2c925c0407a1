// A webhook receiver for Bourse (docs/webhooks.md): it checks each request's signature over the exact bytes it
// received, answers at once, and hands every new event (by eventId) to `onEvent` afterwards.
import { Buffer } from 'node:buffer';
import { createPublicKey, verify } from 'node:crypto';
import http from 'node:http';

/**
 * `publicKey` is the base64 DER (SPKI) key from the B36/B38 answer. It is known only after the
 * webhook is registered, and registering needs this receiver's URL, so it is set later with
 * `setPublicKey`; until then requests get 503, which Bourse retries. `log(text)` prints a line.
 */
export async function startReceiver({ host = '127.0.0.1', port = 0, path = '/bourse-webhook', onEvent, log }) {
  let publicKey;
  // Delivery is at-least-once: a retry or a resend carries the same eventId, so remember what was
  // handled (a real receiver keeps this in its database, next to what the event changed).
  const seen = new Set();

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      // Verify the raw bytes: JSON re-serialised by a parser may differ from what Bourse signed.
      const raw = Buffer.concat(chunks);
      const reply = (status, body, then) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body), then);

      if (req.method !== 'POST' || req.url !== path) return reply(404, { error: 'not found' });
      if (publicKey === undefined) return reply(503, { error: 'not ready' });
      const signature = String(req.headers.signature ?? '');
      const valid = /^[0-9a-f]+$/.test(signature) && verify('sha256', raw, publicKey, Buffer.from(signature, 'hex'));
      if (!valid) {
        // Not from Bourse (or altered on the way): refuse it and never act on it.
        log(`REJECTED: bad or missing signature (${raw.length} bytes from ${req.socket.remoteAddress})`);
        return reply(401, { error: 'bad signature' });
      }
      let event;
      try {
        event = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply(400, { error: 'not JSON' });
      }
      // Answer first, work afterwards (docs/webhooks.md "Answering, retries, order"): Bourse waits at most 5 s for the reply. A duplicate
      // is acknowledged too, or Bourse would keep retrying it.
      reply(200, { callbackStatus: 'SUCCESS' }, () => {
        if (seen.has(event.eventId)) return log(`duplicate event ${event.eventId} (order ${event.orderId} status ${event.orderStatus}), already handled`);
        seen.add(event.eventId);
        onEvent(event);
      });
    });
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const url = `http://${host}:${server.address().port}${path}`;

  return {
    url,
    setPublicKey(base64) {
      publicKey = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
