// A minimal client of Bourse's merchant payments API (/v2): the signed token request (B0) and
// JSON calls that carry the token. Plain Node 20: fetch and node:crypto, nothing to install.
/* global fetch -- built into Node 18 and later */
import { createHmac } from 'node:crypto';
import { URL, URLSearchParams } from 'node:url';

/** A refused call: the envelope's code, msg and detail, so the caller can react to one code (e.g. -1174). */
export class BourseError extends Error {
  constructor(what, status, envelope) {
    super(`${what}: HTTP ${status}, ${envelope.code} ${envelope.msg}${envelope.detail ? ` (${envelope.detail})` : ''}`);
    this.status = status;
    this.code = envelope.code;
    this.data = envelope.data;
  }
}

/** One HTTP exchange. Every /v2 answer is an envelope {code, msg, detail?, data}: code 200 is success. */
async function send(what, url, init) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    // fetch says only "fetch failed"; the reason (e.g. ECONNREFUSED) is its cause.
    throw new Error(`${what}: cannot reach ${new URL(url).origin} (${error.cause?.message ?? error.message}); is Bourse running there?`);
  }
  const text = await response.text();
  let envelope;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new Error(`${what}: HTTP ${response.status}, not a JSON answer: ${text.slice(0, 200)}`);
  }
  if (envelope.code !== 200) throw new BourseError(what, response.status, envelope);
  return envelope.data;
}

/**
 * B0 (docs/merchant-payments.md "Getting a token"): the query `timestamp=<ms>` signed with HMAC-SHA256 of the API secret, the key in
 * X-BH-APIKEY. The signing string is the raw query without `signature`, so build it once and sign
 * exactly those bytes. B0 is limited to 10 a minute per key: get one token and reuse it (it lives 2 h).
 */
export async function connect(baseUrl, apiKey, secretKey) {
  const query = `timestamp=${Date.now()}`;
  const signature = createHmac('sha256', secretKey).update(query).digest('hex');
  const { token, expireTime } = await send('B0 token', `${baseUrl}/v2/token/generate?${query}&signature=${signature}`, { headers: { 'X-BH-APIKEY': apiKey } });
  return new Bourse(baseUrl, token, Number(expireTime));
}

export class Bourse {
  constructor(baseUrl, token, expireTime) {
    this.baseUrl = baseUrl;
    this.token = token;
    this.expireTime = expireTime;
  }

  /** One call with X-BH-TOKEN: GET parameters in the query, other methods a JSON body. Returns `data`. */
  async call(method, path, params = {}) {
    const headers = { 'X-BH-TOKEN': this.token };
    let url = `${this.baseUrl}${path}`;
    let body;
    if (method === 'GET') {
      const query = new URLSearchParams(params).toString();
      if (query !== '') url += `?${query}`;
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(params);
    }
    return send(`${method} ${path}`, url, { method, headers, body });
  }
}
