/**
 * Request signatures of docs/spot-api.md "Signing": HMAC-SHA256 over the raw query and body bytes, minus the
 * `signature` segments. Decoded parameters are never re-serialised: clients sign what they sent.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = 'signature';
const HEX_DIGEST_LENGTH = 64;

const LAST_SIGNATURE = `&${SIGNATURE}=`;

/**
 * Where the usual signed text carries its signature: one `signature` segment, the last, after an
 * `&`; -1 for any other text, which the general paths below read. Checked by the text's only
 * `signature`, so a name merely containing the word (or a second signature) takes the general path.
 */
function lastSignatureAt(raw: string): number {
  const at = raw.lastIndexOf(LAST_SIGNATURE);
  if (at < 0 || raw.indexOf(SIGNATURE) !== at + 1 || raw.indexOf('&', at + 1) >= 0) return -1;
  return at;
}

/** Raw `&`-separated text without the segments named exactly `signature`; empty segments kept. */
function withoutSignature(raw: string): string {
  if (raw.length === 0) return raw;
  // The usual request, without splitting it: what precedes its one, last signature segment.
  const at = lastSignatureAt(raw);
  if (at >= 0) return raw.slice(0, at);
  return raw
    .split('&')
    .filter((segment) => segmentName(segment) !== SIGNATURE)
    .join('&');
}

function segmentName(segment: string): string {
  const equals = segment.indexOf('=');
  return equals < 0 ? segment : segment.slice(0, equals);
}

function withoutTrailingAmpersand(text: string): string {
  return text.endsWith('&') ? text.slice(0, -1) : text;
}

/**
 * The `totalParams` texts a valid signature may cover: Q'+B', and the same with a trailing `&`
 * stripped from Q' and from B' (ccxt coinsph signs `…&timestamp=T&`, others sign without it).
 */
export function signedPayloads(rawQuery: string, rawBody: string, bodyIsJson: boolean): string[] {
  const query = withoutSignature(rawQuery);
  const body = bodyIsJson ? rawBody : withoutSignature(rawBody);
  const exact = query + body;
  const trimmed = withoutTrailingAmpersand(query) + (bodyIsJson ? body : withoutTrailingAmpersand(body));
  return trimmed === exact ? [exact] : [exact, trimmed];
}

function valueOf(raw: string): string | undefined {
  if (raw.length === 0) return undefined;
  const at = lastSignatureAt(raw);
  if (at >= 0) return at + LAST_SIGNATURE.length < raw.length ? raw.slice(at + LAST_SIGNATURE.length) : undefined;
  for (const segment of raw.split('&')) {
    if (segmentName(segment) !== SIGNATURE) continue;
    const value = segment.slice(SIGNATURE.length + 1);
    if (value.length > 0) return value;
  }
  return undefined;
}

/** The `signature` value: the query's, else the form body's (a JSON body never carries it). */
export function findSignature(rawQuery: string, rawBody: string, bodyIsJson: boolean): string | undefined {
  return valueOf(rawQuery) ?? (bodyIsJson ? undefined : valueOf(rawBody));
}

/** True when `signatureHex` (either case) is the HMAC-SHA256 of one of `candidates` under `secret`. */
/**
 * True when the signature is the HMAC of one candidate. Candidates are byte strings (one character
 * per byte, latin1), so the HMAC covers the bytes exactly as sent, even bytes that are not UTF-8.
 */
export function verifySignature(secret: string, candidates: readonly string[], signatureHex: string): boolean {
  const given = Buffer.from(signatureHex.toLowerCase(), 'utf8');
  if (given.length !== HEX_DIGEST_LENGTH) return false;
  let matched = false;
  // Every candidate is checked, so the time taken does not say which one matched.
  for (const candidate of candidates) {
    const expected = Buffer.from(createHmac('sha256', Buffer.from(secret, 'ascii')).update(candidate, 'latin1').digest('hex'), 'utf8');
    if (timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}
