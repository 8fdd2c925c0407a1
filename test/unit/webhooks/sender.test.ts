/**
 * The sender against real local HTTP servers: the reply classification of docs/webhooks.md "Answering, retries, order", the 64 KiB read cap,
 * the timeout, no redirects followed, and the blocked targets of docs/webhooks.md "Registering" when private targets are refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyReply, MAX_REPLY_BYTES, WebhookSender } from '../../../src/webhooks/sender.js';

describe('WebhookSender', () => {
  let server: http.Server;
  let base: string;
  const sender = new WebhookSender();
  const bodies: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        const path = req.url ?? '';
        if (path === '/ok') res.writeHead(200).end('{"callbackStatus":"SUCCESS"}');
        else if (path === '/fail') res.writeHead(200).end('{"callbackStatus":"FAIL"}');
        else if (path === '/empty') res.writeHead(204).end();
        else if (path === '/redirect') res.writeHead(302, { Location: '/ok' }).end();
        else if (path === '/error') res.writeHead(503).end('busy');
        else if (path === '/slow') setTimeout(() => res.writeHead(200).end(), 1000);
        else if (path === '/huge') {
          // Headers at once, then more than the cap, then a never-ending body.
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.write(Buffer.alloc(MAX_REPLY_BYTES + 10, 'x'));
        } else res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    sender.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = (path: string, options: { timeoutMs?: number; block?: boolean; url?: string } = {}) =>
    sender.send({ url: options.url ?? `${base}${path}`, body: Buffer.from('{"a":1}'), headers: { 'Content-Type': 'application/json' }, timeoutMs: options.timeoutMs ?? 2000, blockPrivateTargets: options.block ?? false });

  it('when the receiver answers SUCCESS or an empty 2xx, then it is delivered; the body arrives as sent', async () => {
    expect(await send('/ok')).toMatchObject({ httpStatus: 200, error: '' });
    expect(await send('/empty')).toMatchObject({ httpStatus: 204, error: '' });
    expect(bodies.at(-1)).toBe('{"a":1}');
  });

  it('when the receiver answers callbackStatus FAIL, a 302 (not followed) or a 503, then the attempt failed with the reason', async () => {
    const before = bodies.length;
    expect(await send('/fail')).toMatchObject({ httpStatus: 200, error: 'callbackStatus FAIL' });
    expect(await send('/redirect')).toMatchObject({ httpStatus: 302, error: 'HTTP 302' });
    expect(await send('/error')).toMatchObject({ httpStatus: 503, error: 'HTTP 503' });
    expect(bodies.length - before).toBe(3);
  });

  it('when no full reply comes within the timeout, then it is a timeout with status 0', async () => {
    const outcome = await send('/slow', { timeoutMs: 150 });
    expect(outcome).toMatchObject({ httpStatus: 0, error: 'timeout' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(140);
    expect(outcome.durationMs).toBeLessThan(900);
  });

  it('when a 2xx body is longer than 64 KiB and never ends, then the first 64 KiB decide and the attempt ends', async () => {
    expect(await send('/huge', { timeoutMs: 1500 })).toMatchObject({ httpStatus: 200, error: '' });
  });

  it('when nothing listens, then it is a connection error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await send('', { url: `http://127.0.0.1:${port}/` })).toMatchObject({ httpStatus: 0, error: 'connection error' });
  });

  it('when private targets are blocked, then a loopback address or a name resolving to one is never contacted', async () => {
    const before = bodies.length;
    expect(await send('/ok', { block: true })).toMatchObject({ httpStatus: 0, error: 'blocked target' });
    expect(await send('', { block: true, url: `${base.replace('127.0.0.1', 'localhost')}/ok` })).toMatchObject({ httpStatus: 0, error: 'blocked target' });
    expect(await send('', { block: true, url: `${base.replace('127.0.0.1', '[::1]')}/ok` })).toMatchObject({ httpStatus: 0, error: 'blocked target' });
    expect(bodies.length).toBe(before);
  });
});

describe('classifyReply (docs/webhooks.md "Answering, retries, order")', () => {
  it.each([
    [200, '{"callbackStatus":"SUCCESS"}', ''],
    [200, '', ''],
    [201, 'ok', ''],
    [200, '{"received":true}', ''],
    [200, '[1,2]', ''],
    [200, '{"callbackStatus":"FAIL"}', 'callbackStatus FAIL'],
    [200, '{"callbackStatus":"success"}', 'callbackStatus success'],
    [200, '{"callbackStatus":null}', 'callbackStatus null'],
    [299, '{"callbackStatus":1}', 'callbackStatus 1'],
    [301, '', 'HTTP 301'],
    [404, '{"callbackStatus":"SUCCESS"}', 'HTTP 404'],
    [500, '', 'HTTP 500'],
  ])('when the reply is %i %s, then the error is %j', (status, body, error) => {
    expect(classifyReply(status, Buffer.from(body))).toBe(error);
  });
});
