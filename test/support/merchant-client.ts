import { expect } from 'vitest';
import { hmacHex, request, type HttpAnswer } from './clients.js';
import type { Operator } from './fixtures.js';
import { BUSINESS_FIELDS } from './merchant-fields.js';

export { BUSINESS_FIELDS, INDIVIDUAL_FIELDS } from './merchant-fields.js';

/** An area B answer: the HTTP status and the docs/merchant-payments.md "Answers and errors" envelope. */
export interface Envelope<T = unknown> {
  status: number;
  code: number;
  msg: string;
  detail: string;
  data: T;
}

function envelopeOf<T>(answer: HttpAnswer): Envelope<T> {
  const body = answer.body as { code: number; msg: string; detail?: string; data: T } | undefined;
  if (body === undefined) throw new Error(`not an envelope (HTTP ${answer.status}): ${answer.text.slice(0, 200)}`);
  return { status: answer.status, code: body.code, msg: body.msg, detail: body.detail ?? '', data: body.data };
}

/** A client of area B: a token from B0, then JSON calls with `X-BH-TOKEN`. */
export class MerchantClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
    readonly apiKey: string,
  ) {}

  /** B0 with the key's secret, as docs/merchant-payments.md "Getting a token" signs it. */
  static async connect(baseUrl: string, apiKey: string, secretKey: string): Promise<MerchantClient> {
    const query = `timestamp=${Date.now()}`;
    const answer = envelopeOf<{ token: string }>(await request(`${baseUrl}/v2/token/generate?${query}&signature=${hmacHex(secretKey, query)}`, { headers: { 'X-BH-APIKEY': apiKey } }));
    if (answer.code !== 200) throw new Error(`B0 failed: ${answer.code} ${answer.detail}`);
    return new MerchantClient(baseUrl, answer.data.token, apiKey);
  }

  async call<T = unknown>(method: string, path: string, params: Record<string, unknown> = {}): Promise<Envelope<T>> {
    const headers: Record<string, string> = { 'X-BH-TOKEN': this.token };
    if (method === 'GET' || method === 'DELETE') {
      const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])).toString();
      return envelopeOf<T>(await request(`${this.baseUrl}${path}${query === '' ? '' : `?${query}`}`, { method, headers }));
    }
    return envelopeOf<T>(await request(`${this.baseUrl}${path}`, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(params) }));
  }

  /** A call that must succeed: its `data`. */
  async ok<T = unknown>(method: string, path: string, params: Record<string, unknown> = {}): Promise<T> {
    const answer = await this.call<T>(method, path, params);
    expect({ code: answer.code, detail: answer.detail }).toEqual({ code: 200, detail: '' });
    return answer.data;
  }

  /** A call that must be refused: `[HTTP status, code]`. */
  async refused(method: string, path: string, params: Record<string, unknown> = {}): Promise<[number, number]> {
    const answer = await this.call(method, path, params);
    return [answer.status, answer.code];
  }
}

/** The operator's docs/merchant-payments.md "The simulator and the sandbox API" calls, with the admin bearer token. */
export async function adminSandbox<T = unknown>(baseUrl: string, adminToken: string, method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  return envelopeOf<T>(
    await request(`${baseUrl}/sandbox/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

/** A new merchant-type user with a key, connected to area B. */
export async function merchantUser(operator: Operator, baseUrl: string): Promise<{ userId: string; accountId: string; client: MerchantClient }> {
  const user = await operator.ok<{ userId: string; accountId: string }>('POST', '/users', { type: 'merchant', email: `m${Math.random().toString(36).slice(2)}@example.mx` });
  const key = await operator.newKey(user.userId);
  return { ...user, client: await MerchantClient.connect(baseUrl, key.apiKey, key.secretKey) };
}

/** A verified BUSINESS merchant with active accounts in `fiats` (automatic modes): its id. */
export async function onboardedMerchant(client: MerchantClient, name: string, fiats: string[] = ['MXN']): Promise<number> {
  const { merchantId } = await client.ok<{ merchantId: number }>('POST', '/v2/merchants', {
    merchantName: name,
    email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.mx`,
    merchantType: 'BUSINESS',
    callbackUrl: 'https://merchant.example/kyc-done',
  });
  for (const fiat of fiats) await client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat, fieldList: BUSINESS_FIELDS });
  return merchantId;
}

export const SPEI_BENEFICIARY = { 'CLABE number': '012180001234567891', 'Beneficiary Name': 'Juan Perez' };
