import type { Exchange } from '../../exchange/exchange.js';
import type { DocumentStore } from '../../store/documents.js';
import type { HttpMethod, ParamDoc } from '../endpoint.js';
import type { MerchantParams } from './merchant-params.js';
import type { JsonSchema } from '../response-schema.js';

/**
 * How an area B endpoint is reached (docs/merchant-payments.md "Endpoints served"): `KEY` API key + signature (B0),
 * `TOKEN` `X-BH-TOKEN`, `OPTIONAL_TOKEN` a token if valid, else none (`/v2/base/*`), `SANDBOX`
 * docs/merchant-payments.md "The simulator and the sandbox API": a token while `BOURSE_SANDBOX=1`, the operator's bearer token always.
 */
export type MerchantAuth = 'KEY' | 'TOKEN' | 'OPTIONAL_TOKEN' | 'SANDBOX';

/** Rate-limit buckets of docs/merchant-payments.md "Rate limits" besides the user's general one. */
export type MerchantBucket = 'general' | 'quote';

export interface MerchantContext {
  params: MerchantParams;
  /** Path parameters by name, as sent (handlers parse them). */
  path: Readonly<Record<string, string>>;
  exchange: Exchange;
  /** The caller's user; 0 for an operator call on docs/merchant-payments.md "The simulator and the sandbox API" (any object, `userId` from the query where needed). */
  userId: number;
  /** True for an operator (admin bearer) call on docs/merchant-payments.md "The simulator and the sandbox API". */
  admin: boolean;
  /** The API key behind the token (or that signed B0); "" for operator calls and anonymous reads. */
  apiKey: string;
  ip: string;
  /** `BOURSE_SANDBOX`. */
  sandbox: boolean;
  /** Base of links this server hands out (`kycLink`, `verifyLink`). */
  publicBaseUrl: string;
  /**
   * Where B35 keeps uploads (files under `<BOURSE_DATA>/uploads`, or the PostgreSQL database).
   * Undefined only in apps built without one (some tests), where B35 refuses to store anything.
   */
  documents?: DocumentStore;
  /** docs/webhooks.md "Verifying the signature": the deployment's webhook public key, base64 DER SPKI, shown by B36–B38. */
  webhookPublicKey: string;
}

export interface MerchantEndpoint {
  /** The spec's number, e.g. "B13", or "S…" for a docs/merchant-payments.md "The simulator and the sandbox API" route. */
  id: string;
  summary: string;
  method: HttpMethod;
  /** Absolute path, Fastify syntax for path parameters (`/v2/payments/:userPaymentId`). */
  path: string;
  extraPaths?: readonly string[];
  auth: MerchantAuth;
  bucket?: MerchantBucket;
  /** Requests this call counts for in its bucket (B35: 5). */
  cost?: number;
  /**
   * B35: the body may be `multipart/form-data` up to 26 MiB (else 1 MiB, docs/merchant-payments.md "Requests"); the handler reads
   * the files from `params.rawBody` / `params.contentType`, and `params` then holds the query only.
   */
  multipart?: boolean;
  /**
   * A GET that changes state (B0 journals the token it issues): a follower forwards it to the leader
   * like any write (docs/deployment.md "Writes through any node").
   */
  writes?: boolean;
  params: readonly ParamDoc[];
  /** JSON Schema of `data` in a successful envelope; tests check real answers against it. */
  response: JsonSchema;
  /** A typical `data`, shown in the reference (tests check it against `response`). */
  example: unknown;
  /** Returns `data` of the docs/merchant-payments.md "Answers and errors" envelope. */
  handler: (ctx: MerchantContext) => Promise<unknown> | unknown;
}
