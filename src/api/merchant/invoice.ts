/**
 * B35 `POST /v2/order/invoice` (docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "Order statuses"): supporting documents for an order, as
 * `multipart/form-data`. The edge checks the upload (1–5 `files` parts, each ≤ 5 MiB, JPEG, PNG or
 * PDF by content), checks the order as far as it can without the core, stores each file in the
 * deployment's document store (store/documents.ts: `<BOURSE_DATA>/uploads/<orderId>/<sha256>.<ext>`,
 * mode 0600, on SQLite; the database on PostgreSQL), then submits `attachDocuments`, which
 * rechecks the order and moves it (11 → 12, 31 → 40/41). Only the operator's O33 serves them back.
 */
import { createHash } from 'node:crypto';
import type { OrderKindName } from '../../core/payment-commands.js';
import { invalidParam, refuse } from '../../core/payment-errors.js';
import { MAX_ORDER_DOCUMENTS } from '../../exchange/payments/order-commands.js';
import { ORDER, ORDER_KINDS } from '../../payments/orders.js';
import type { DocumentExt } from '../../store/documents.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS } from './schemas.js';
import { MerchantParams } from './merchant-params.js';
import { parseMultipart, type MultipartPart } from './multipart.js';

/** docs/merchant-payments.md "Endpoints served": files per request, bytes per file. */
export const MAX_FILES_PER_UPLOAD = 5;
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** A client's file name is kept (journaled) for the record only; longer → -4011. */
export const MAX_FILE_NAME_CHARS = 255;
/** The part that carries the files (repeated once per file). */
const FILES = 'files';
/** The form fields B35 reads; other fields are ignored (docs/merchant-payments.md "Requests"). */
const FIELDS = ['orderId', 'orderType'] as const;
/** Statuses that take documents: the core's rule, checked here too so that a refused upload writes nothing. */
const UPLOADABLE: ReadonlySet<number> = new Set([ORDER.RFI, ORDER.DOCUMENTS, ORDER.PENDING_PAYMENT, ORDER.PAY_IN_PENDING]);

interface FileType {
  ext: DocumentExt;
  contentType: string;
  magic: Buffer;
}

/** What B35 accepts, recognised by the first bytes only: a client's declared type proves nothing. */
const FILE_TYPES: readonly FileType[] = [
  { ext: 'jpg', contentType: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { ext: 'png', contentType: 'image/png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { ext: 'pdf', contentType: 'application/pdf', magic: Buffer.from('%PDF-', 'latin1') },
];

/** The accepted type of `data` by its magic bytes, or undefined. */
export function fileTypeOf(data: Buffer): FileType | undefined {
  return FILE_TYPES.find((t) => data.length >= t.magic.length && data.subarray(0, t.magic.length).equals(t.magic));
}

interface Upload {
  name: string;
  data: Buffer;
  size: number;
  sha256: string;
  type: FileType;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The fields of the form (plain parts named `orderId`, `orderType`) as parameters under docs/merchant-payments.md "Requests"
 * rules, so that `orderId` reads alike from the form and from the query.
 */
function formParams(parts: readonly MultipartPart[]): MerchantParams {
  const pairs: string[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    if (part.filename !== undefined || !(FIELDS as readonly string[]).includes(part.name)) continue;
    if (seen.has(part.name)) invalidParam(part.name, 'is sent twice');
    seen.add(part.name);
    let value: string;
    try {
      value = UTF8.decode(part.data);
    } catch {
      invalidParam(part.name, 'is not UTF-8');
    }
    pairs.push(`${encodeURIComponent(part.name)}=${encodeURIComponent(value)}`);
  }
  return MerchantParams.parse('', Buffer.from(pairs.join('&'), 'utf8'), 'application/x-www-form-urlencoded');
}

/** The client's name without any path (RFC 7578 section 4.2); the stored name when none was sent. */
function displayName(filename: string | undefined, sha256: string, type: FileType): string {
  const base = (filename ?? '').split(/[/\\]/).pop()?.trim() ?? '';
  if ([...base].length > MAX_FILE_NAME_CHARS) refuse('PARAM_EXCEEDS_LIMIT_LENGTH', `files name exceeds ${MAX_FILE_NAME_CHARS} characters`);
  return base === '' ? `${sha256}.${type.ext}` : base;
}

/** The `files` parts, checked in order of docs/merchant-payments.md "Endpoints served": count (-4010 none, -4012 over 5), size (-4011), type by content (-4010). */
function uploadsOf(parts: readonly MultipartPart[]): Upload[] {
  // A browser form with no file chosen sends an empty part with `filename=""`: no file.
  const files = parts.filter((p) => p.name === FILES && !(p.filename === '' && p.data.length === 0));
  if (files.length === 0) invalidParam(FILES, `is required: 1 to ${MAX_FILES_PER_UPLOAD} JPEG, PNG or PDF file parts`);
  if (files.length > MAX_FILES_PER_UPLOAD) refuse('PARAM_EXCEEDS_LIMIT_QUANTITY', `files has ${files.length} parts; at most ${MAX_FILES_PER_UPLOAD} per upload`);
  return files.map((part, index) => {
    const label = `files[${index + 1}]${part.filename ? ` (${part.filename})` : ''}`;
    if (part.data.length > MAX_FILE_BYTES) refuse('PARAM_EXCEEDS_LIMIT_LENGTH', `${label} exceeds ${MAX_FILE_BYTES} bytes`);
    const type = fileTypeOf(part.data);
    if (type === undefined) invalidParam(label, 'is not a JPEG, PNG or PDF file');
    const sha256 = createHash('sha256').update(part.data).digest('hex');
    return { name: displayName(part.filename, sha256, type), data: part.data, size: part.data.length, sha256, type };
  });
}

/**
 * The order as the committed state has it, checked as the core will check it (owner and kind
 * -5101, status -5041, count -5061), so that a refusal usually stores nothing. The core rechecks:
 * the state may move between this read and the command.
 */
function checkOrder(ctx: MerchantContext, orderId: number, kind: OrderKindName | undefined, count: number): void {
  const order = ctx.exchange.core.payments.state.orders.get(orderId);
  if (order === undefined || order.userId !== ctx.userId || (kind !== undefined && order.kind !== kind)) refuse('ORDER_NOT_EXIST', `Order ${orderId} does not exist`);
  if (!UPLOADABLE.has(order.status)) refuse('ORDER_UNPAID_CAN_UPLOAD', `Order ${orderId} takes no documents in status ${order.status}`);
  if (order.documents + count > MAX_ORDER_DOCUMENTS) refuse('MAX_DOCUMENT', `Order ${orderId} has ${order.documents} files; at most ${MAX_ORDER_DOCUMENTS} per order`);
}

async function uploadInvoice(ctx: MerchantContext): Promise<unknown> {
  const parts = parseMultipart(ctx.params.rawBody, ctx.params.contentType);
  const form = formParams(parts);
  // docs/merchant-payments.md "Requests": a parameter in the query and the body takes the query's value.
  const from = (name: string): MerchantParams => (ctx.params.has(name) ? ctx.params : form);
  const orderId = from('orderId').int('orderId', { required: true, min: 1 });
  const kind = from('orderType').enumOf('orderType', ORDER_KINDS);
  const uploads = uploadsOf(parts);
  checkOrder(ctx, orderId, kind, uploads.length);
  const documents = ctx.documents;
  if (documents === undefined) refuse('DISCONNECTED', 'This server has no document store to keep uploads in');
  // Stored durably before the command, so that the journal never names a document that is not
  // kept. If the core refuses (the order moved meanwhile), they stay: they are content-addressed,
  // so a later upload of the same bytes finds them, and no state names them.
  for (const upload of uploads) await documents.put(orderId, upload.sha256, upload.type.ext, upload.data);
  await ctx.exchange.submit({
    type: 'attachDocuments',
    userId: ctx.userId,
    orderId,
    ...(kind === undefined ? {} : { kind }),
    files: uploads.map((u) => ({ name: u.name, size: u.size, sha256: u.sha256, contentType: u.type.contentType })),
  });
  return true;
}

/** B35 (docs/merchant-payments.md "Endpoints served"). */
export function invoiceEndpoints(): MerchantEndpoint[] {
  return [
    {
      id: 'B35',
      summary: 'Upload supporting documents for an order (multipart/form-data)',
      method: 'POST',
      path: '/v2/order/invoice',
      auth: 'TOKEN',
      cost: 5,
      multipart: true,
      params: [
        { name: 'orderId', type: 'INT', required: true, description: 'a form field or in the query' },
        { name: 'orderType', type: 'ENUM', values: ORDER_KINDS, description: "must be the order's kind" },
        { name: 'files', type: 'FILE', required: true, description: `1-${MAX_FILES_PER_UPLOAD} parts, each JPEG, PNG or PDF of at most 5 MiB; at most ${MAX_ORDER_DOCUMENTS} per order` },
      ],
      ...ANSWERS.B35,
      handler: uploadInvoice,
    },
  ];
}
