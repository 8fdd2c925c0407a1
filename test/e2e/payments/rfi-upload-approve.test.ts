/**
 * Story: documents uploaded with B35 move orders out of review. With `orderReview` rfi, an on-ramp
 * waits in 11; a PNG uploaded as multipart/form-data takes it to 12, and the automatic decision
 * after an upload approves it (any automatic mode but reject → 40). With `documents`, an order
 * waits in 31 and a PDF takes it straight to 40. Each file is stored once: on SQLite under
 * `<BOURSE_DATA>/uploads/<orderId>/<sha256>.<ext>`, mode 0600; on PostgreSQL (the stories run on
 * both) in `bourse.documents`, with nothing under `<BOURSE_DATA>/uploads`. Refusals: a text file
 * (-4010), six files at once (-4012), the eleventh file of an order (-5061), an order of another
 * user or of another kind (-5101), an order in 60 or 10 (-5041); none of them stores anything.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantUser, onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { postgresUrlOf, storedDocuments } from '../../support/stored-documents.js';

interface FilePart {
  filename: string;
  type: string;
  data: Buffer;
}

interface Answer {
  status: number;
  code: number;
  detail: string;
  data: unknown;
}

const BOUNDARY = '----bourse-e2e-4b1d';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A small "PNG": the signature is what B35 checks; `n` makes each file's bytes (and hash) its own. */
const png = (n: number): FilePart => ({ filename: `scan-${n}.png`, type: 'image/png', data: Buffer.concat([PNG_SIGNATURE, Buffer.from(`IHDR-${n}`, 'latin1')]) });
const PDF: FilePart = { filename: 'invoice.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1') };
// Declared as a PNG: the content decides.
const TEXT: FilePart = { filename: 'notes.png', type: 'image/png', data: Buffer.from('just some notes\n', 'utf8') };

/** A multipart/form-data body built by hand: fields, then one `files` part per file. */
function multipartBody(fields: Record<string, string>, files: readonly FilePart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, 'utf8'));
  }
  for (const file of files) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`, 'utf8'), file.data, Buffer.from('\r\n', 'latin1'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`, 'latin1'));
  return Buffer.concat(chunks);
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

describe('story: documents uploaded for review (B35)', () => {
  let s: PaymentsStory;
  let rfiOrder: number;
  let documentsOrder: number;

  /** B35 with `token` (the story's user by default); `query` goes after `?`. */
  async function upload(fields: Record<string, string>, files: readonly FilePart[], options: { token?: string; query?: string } = {}): Promise<Answer> {
    const response = await fetch(`${s.t.url}/v2/order/invoice${options.query === undefined ? '' : `?${options.query}`}`, {
      method: 'POST',
      headers: { 'X-BH-TOKEN': options.token ?? s.client.token, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: new Uint8Array(multipartBody(fields, files)),
    });
    const body = (await response.json()) as { code: number; detail?: string; data: unknown };
    return { status: response.status, code: body.code, detail: body.detail ?? '', data: body.data };
  }

  const refusal = (answer: Answer): [number, number] => [answer.status, answer.code];
  const uploadsOf = (orderId: number): string => path.join(s.t.dataDir, 'uploads', String(orderId));
  const storedFiles = async (orderId: number): Promise<string[]> => [...(await storedDocuments(s.t, orderId)).keys()];
  const statusOf = async (orderId: number): Promise<number> => (await s.client.ok<{ orderStatus: number }>('GET', '/v2/order/detail', { orderId })).orderStatus;
  const onRamp = async (clientId: string): Promise<number> =>
    (await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId })).orderId;

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    await onboardedMerchant(s.client, 'Acme MX');
  });
  afterAll(async () => s.t.stop());

  it('1. with orderReview rfi, B29 creates an on-ramp that the next read shows in 11 (RFI)', async () => {
    expect(await s.client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'rfi' })).toMatchObject({ orderReview: 'rfi' });
    rfiOrder = await onRamp('rfi-0001');
    expect(await statusOf(rfiOrder)).toBe(11);
    expect(await storedFiles(rfiOrder)).toEqual([]);
  });

  it('2. B35 with a PNG answers true; 11 → 12 → the automatic decision approves → 40; the file is kept, mode 0600', async () => {
    const file = png(1);
    const answer = await upload({ orderId: String(rfiOrder), orderType: 'fiat_to_crypto' }, [file]);
    expect(answer).toEqual({ status: 200, code: 200, detail: '', data: true });
    expect(await statusOf(rfiOrder)).toBe(40);
    const stored = await storedDocuments(s.t, rfiOrder);
    expect([...stored.keys()]).toEqual([`${sha256(file.data)}.png`]);
    expect(stored.get(`${sha256(file.data)}.png`)?.equals(file.data)).toBe(true);
    if (postgresUrlOf(s.t) === undefined) {
      expect(statSync(path.join(uploadsOf(rfiOrder), `${sha256(file.data)}.png`)).mode & 0o777).toBe(0o600);
      expect(statSync(uploadsOf(rfiOrder)).mode & 0o777).toBe(0o700);
    } else {
      // In the database, for every node: nothing on this node's disk.
      expect(existsSync(path.join(s.t.dataDir, 'uploads'))).toBe(false);
    }
    // Nothing under /v2 serves it back.
    expect((await fetch(`${s.t.url}/v2/uploads/${rfiOrder}/${sha256(file.data)}.png`, { headers: { 'X-BH-TOKEN': s.client.token } })).status).toBe(404);
    await s.verified();
  });

  it('3. refusals that store nothing: a text file -4010, six files -4012, another kind -5101, another user -5101, no file -4010', async () => {
    const before = await storedFiles(rfiOrder);
    const text = await upload({ orderId: String(rfiOrder) }, [TEXT]);
    expect([...refusal(text), text.detail]).toEqual([400, -4010, 'files[1] (notes.png) is not a JPEG, PNG or PDF file']);
    expect(refusal(await upload({ orderId: String(rfiOrder) }, [2, 3, 4, 5, 6, 7].map(png)))).toEqual([400, -4012]);
    expect(refusal(await upload({ orderId: String(rfiOrder), orderType: 'crypto_to_fiat' }, [png(2)]))).toEqual([404, -5101]);
    const other = await merchantUser(s.op, s.t.url);
    expect(refusal(await upload({ orderId: String(rfiOrder) }, [png(2)], { token: other.client.token }))).toEqual([404, -5101]);
    expect(refusal(await upload({ orderId: '99999999' }, [png(2)]))).toEqual([404, -5101]);
    expect(refusal(await upload({ orderId: String(rfiOrder) }, []))).toEqual([400, -4010]);
    expect(refusal(await upload({}, [png(2)]))).toEqual([400, -4010]);
    expect(await storedFiles(rfiOrder)).toEqual(before);
    expect(await statusOf(rfiOrder)).toBe(40);
  });

  it('4. while the pay-in is awaited (40) an order takes files up to 10 in all; the 11th is -5061 and is not stored', async () => {
    expect(await upload({ orderId: String(rfiOrder) }, [2, 3, 4, 5, 6].map(png))).toMatchObject({ code: 200, data: true });
    // orderId in the query this time: it wins over the form, which has none.
    expect(await upload({ orderType: 'fiat_to_crypto' }, [7, 8, 9, 10].map(png), { query: `orderId=${rfiOrder}` })).toMatchObject({ code: 200, data: true });
    expect(await storedFiles(rfiOrder)).toHaveLength(10);
    const eleventh = await upload({ orderId: String(rfiOrder) }, [png(11)]);
    expect([...refusal(eleventh), eleventh.detail]).toEqual([400, -5061, `Order ${rfiOrder} has 10 files; at most 10 per order`]);
    expect(await storedFiles(rfiOrder)).toHaveLength(10);
    expect(await storedFiles(rfiOrder)).not.toContain(`${sha256(png(11).data)}.png`);
    expect(await statusOf(rfiOrder)).toBe(40);
  });

  it('5. once paid and released (60), the order takes no documents: -5041', async () => {
    expect(await s.client.ok('POST', `/sandbox/v2/orders/${rfiOrder}/pay`, { traceNumber: 'SPEI-RFI-0001' })).toMatchObject({ result: 'ORDER_PAID' });
    expect(await statusOf(rfiOrder)).toBe(60);
    expect(refusal(await upload({ orderId: String(rfiOrder) }, [PDF]))).toEqual([400, -5041]);
    expect(await storedFiles(rfiOrder)).not.toContain(`${sha256(PDF.data)}.pdf`);
    await s.verified();
  });

  it('6. with orderReview documents, an order waits in 31; a PDF (orderId in the query) takes it to 40', async () => {
    expect(await s.client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'documents' })).toMatchObject({ orderReview: 'documents' });
    documentsOrder = await onRamp('docs-0001');
    expect(await statusOf(documentsOrder)).toBe(31);
    expect(await upload({}, [PDF], { query: `orderId=${documentsOrder}&orderType=fiat_to_crypto` })).toMatchObject({ status: 200, code: 200, data: true });
    expect(await statusOf(documentsOrder)).toBe(40);
    const stored = await storedDocuments(s.t, documentsOrder);
    expect([...stored.keys()]).toEqual([`${sha256(PDF.data)}.pdf`]);
    expect(stored.get(`${sha256(PDF.data)}.pdf`)?.equals(PDF.data)).toBe(true);
    if (postgresUrlOf(s.t) === undefined) expect(statSync(path.join(uploadsOf(documentsOrder), `${sha256(PDF.data)}.pdf`)).mode & 0o777).toBe(0o600);
    await s.verified();
  });

  it('7. an order still in review (10, mode manual) takes no documents: -5041', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'manual' });
    const waiting = await onRamp('manual-0001');
    expect(await statusOf(waiting)).toBe(10);
    expect(refusal(await upload({ orderId: String(waiting) }, [png(1)]))).toEqual([400, -5041]);
    expect(await storedFiles(waiting)).toEqual([]);
    await s.verified();
  });
});
