import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { isBlockedAddress } from './target-guard.js';

/** docs/webhooks.md "Answering, retries, order": at most this much of a reply is read; receivers should answer first and work afterwards. */
export const MAX_REPLY_BYTES = 64 * 1024;

export interface DeliveryRequest {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  /** `BOURSE_SANDBOX=0`: refuse targets on loopback, private, link-local or unique-local addresses. */
  blockPrivateTargets: boolean;
}

/** One attempt as B40 shows it: `httpStatus` 0 when no complete reply came; `error` "" on success. */
export interface DeliveryOutcome {
  httpStatus: number;
  durationMs: number;
  error: string;
}

class BlockedTarget extends Error {}

/** A webhook URL parsed once: `http.request` options without the per-request ones, and whether its host is a blocked address literal. */
interface Target {
  secure: boolean;
  options: http.RequestOptions;
  blockedLiteral: boolean;
}

/** Parsed URLs kept: far more than the webhooks a deployment delivers to at once; past it the cache starts over. */
const MAX_TARGETS = 4096;

/** Resolves as Node would, but fails when any address the name gives is a blocked one (no DNS rebinding: the checked address is the one used). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error !== null) return callback(error, '', 0);
    const blocked = addresses.find((a) => isBlockedAddress(a.address));
    if (blocked !== undefined || addresses.length === 0) return callback(new BlockedTarget(`${hostname} resolves to ${blocked?.address ?? 'nothing'}`), '', 0);
    if (options.all === true) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/** docs/webhooks.md "Answering, retries, order" reply classification of a complete reply. */
export function classifyReply(status: number, body: Buffer): string {
  if (status < 200 || status > 299) return `HTTP ${status}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return ''; // lenient: a 2xx without JSON means the receiver has the event
  }
  if (parsed === null || typeof parsed !== 'object' || !('callbackStatus' in parsed)) return '';
  const value = (parsed as { callbackStatus: unknown }).callbackStatus;
  return value === 'SUCCESS' ? '' : `callbackStatus ${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

/**
 * Sends webhook bodies over kept-alive connections, never following redirects. Sockets are not
 * capped here: the delivery worker caps attempts per URL (`maxInFlightPerUrl`, a live setting).
 */
export class WebhookSender {
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  /** By URL text; null: not a URL. Every attempt to a URL would otherwise parse it again. */
  private readonly targets = new Map<string, Target | null>();

  send(request: DeliveryRequest): Promise<DeliveryOutcome> {
    const started = performance.now();
    const outcome = (httpStatus: number, error: string): DeliveryOutcome => ({ httpStatus, durationMs: Math.round(performance.now() - started), error });
    const target = this.target(request.url);
    if (target === null) return Promise.resolve(outcome(0, 'connection error'));
    if (request.blockPrivateTargets && target.blockedLiteral) return Promise.resolve(outcome(0, 'blocked target'));
    const { secure } = target;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (httpStatus: number, error: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome(httpStatus, error));
      };
      const req = (secure ? https : http).request(
        {
          ...target.options,
          method: 'POST',
          agent: secure ? this.agents.https : this.agents.http,
          headers: { ...request.headers, 'Content-Length': String(request.body.length) },
          ...(request.blockPrivateTargets ? { lookup: guardedLookup } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const complete = (): void => finish(res.statusCode ?? 0, classifyReply(res.statusCode ?? 0, Buffer.concat(chunks)));
          res.on('data', (chunk: Buffer) => {
            if (size >= MAX_REPLY_BYTES) return;
            chunks.push(chunk.subarray(0, MAX_REPLY_BYTES - size));
            size += chunk.length;
            if (size >= MAX_REPLY_BYTES) {
              // Enough read: the rest is not waited for, and the connection is not reused.
              complete();
              res.destroy();
            }
          });
          res.on('end', complete);
          res.on('error', () => finish(0, 'connection error'));
        },
      );
      // No full reply within the timeout: the attempt failed, whatever came so far.
      const timer = setTimeout(() => {
        finish(0, 'timeout');
        req.destroy();
      }, request.timeoutMs);
      req.on('error', (error) => finish(0, error instanceof BlockedTarget || (error as { cause?: unknown }).cause instanceof BlockedTarget ? 'blocked target' : 'connection error'));
      req.end(request.body);
    });
  }

  private target(text: string): Target | null {
    let target = this.targets.get(text);
    if (target !== undefined) return target;
    try {
      const url = new URL(text);
      const hostname = url.hostname.replace(/^\[|\]$/g, '');
      target = { secure: url.protocol === 'https:', options: urlToHttpOptions(url), blockedLiteral: isIP(hostname) !== 0 && isBlockedAddress(hostname) };
    } catch {
      target = null;
    }
    if (this.targets.size >= MAX_TARGETS) this.targets.clear();
    this.targets.set(text, target);
    return target;
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
