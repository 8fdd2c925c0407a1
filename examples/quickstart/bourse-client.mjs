// A minimal signed REST client for Bourse's /openapi/v1 (Node 18+, no dependencies).
import { createHmac } from 'node:crypto';
/* global process, fetch, URLSearchParams -- built into Node 18 and later */
import { readFileSync } from 'node:fs';

export function loadDemoCredentials(dataDir = process.env.BOURSE_DATA ?? 'data') {
  return JSON.parse(readFileSync(`${dataDir}/demo-credentials.json`, 'utf8'));
}

export function client(baseUrl, apiKey, secretKey) {
  /** Signed call: the parameters go in the query (GET/DELETE) or a form body (POST/PUT). */
  async function signed(method, path, params = {}) {
    const text = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
    const signature = createHmac('sha256', secretKey).update(text).digest('hex');
    const payload = `${text}&signature=${signature}`;
    const inBody = method === 'POST' || method === 'PUT';
    const response = await fetch(`${baseUrl}/openapi/v1/${path}${inBody ? '' : `?${payload}`}`, {
      method,
      headers: { 'X-BH-APIKEY': apiKey, ...(inBody ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
      body: inBody ? payload : undefined,
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
    return body;
  }
  return { signed };
}
