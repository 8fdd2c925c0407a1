/**
 * A small, strict `multipart/form-data` reader for B35 (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Endpoints served"; RFC 7578 over
 * RFC 2046 section 5.1.1): the boundary from the Content-Type, then parts with a `form-data`
 * Content-Disposition (`name`, optional `filename`) and an optional Content-Type. Lines end in CRLF
 * only; a body that does not follow the grammar, or stops before its close delimiter, is refused
 * with -4010 ("body …"), never guessed at. Bounded: at most `maxParts` parts (more → -4012, the
 * code of "too many files in one upload") and `MAX_PART_HEADER_BYTES` of headers per part; part
 * data are views of the body, not copies, and the body itself is capped by the route (26 MiB).
 */
import { invalidParam, refuse } from '../../core/payment-errors.js';

export interface MultipartPart {
  /** Content-Disposition `name`. */
  name: string;
  /** Content-Disposition `filename` as sent (possibly ""); undefined for a plain field. */
  filename: string | undefined;
  /** The part's Content-Type as sent, lowercased media type with its parameters; "" when absent. */
  contentType: string;
  /** The part's bytes: a view of the body. */
  data: Buffer;
}

export interface MultipartOptions {
  /** Default `MAX_MULTIPART_PARTS`. */
  readonly maxParts?: number;
}

/** B35 takes at most 5 files and two fields: 16 leaves room for a few ignored parts, not for a flood. */
export const MAX_MULTIPART_PARTS = 16;
/** Headers of one part: a disposition with a long file name and a type fit many times over. */
export const MAX_PART_HEADER_BYTES = 8 * 1024;

const CRLF = Buffer.from('\r\n', 'latin1');
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const DASH = 0x2d;
const SPACE = 0x20;
const TAB = 0x09;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** RFC 2046 `bchars`: 1–70 of these, not ending in a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;
/** RFC 9110 `token`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

function malformed(why: string): never {
  invalidParam('body', why);
}

/**
 * `;`-separated `name=value` parameters after the first item of a header value (`value` starts at
 * that `;`). Values are tokens or quoted strings; in a quoted string `\"` and `\\` stand for `"`
 * and `\` (curl), any other backslash is itself (browsers send Windows names unescaped). Names
 * come back lowercased; a name given twice is refused.
 */
function headerParams(value: string, what: string): Map<string, string> {
  const params = new Map<string, string>();
  let i = 0;
  const skipSpace = (): void => {
    while (i < value.length && (value[i] === ' ' || value[i] === '\t')) i += 1;
  };
  const token = (): string => {
    const start = i;
    while (i < value.length && TOKEN_CHAR.test(value[i])) i += 1;
    return value.slice(start, i);
  };
  while (true) {
    skipSpace();
    if (i === value.length) return params;
    if (value[i] !== ';') malformed(`has a malformed ${what} header`);
    i += 1;
    skipSpace();
    // A trailing `;` is tolerated, as every client reader does.
    if (i === value.length) return params;
    const name = token().toLowerCase();
    skipSpace();
    if (name === '' || value[i] !== '=') malformed(`has a malformed ${what} header`);
    i += 1;
    skipSpace();
    let text = '';
    if (value[i] === '"') {
      i += 1;
      let closed = false;
      while (i < value.length) {
        const c = value[i];
        if (c === '"') {
          closed = true;
          i += 1;
          break;
        }
        if (c === '\\' && (value[i + 1] === '"' || value[i + 1] === '\\')) {
          text += value[i + 1];
          i += 2;
          continue;
        }
        text += c;
        i += 1;
      }
      if (!closed) malformed(`has an unterminated quoted string in its ${what} header`);
    } else {
      text = token();
      if (text === '') malformed(`has a malformed ${what} header`);
    }
    if (params.has(name)) malformed(`repeats ${name} in its ${what} header`);
    params.set(name, text);
  }
}

/** The first item of a header value (`form-data`, `multipart/form-data`), lowercased, and the rest from its `;`. */
function splitFirst(value: string): [string, string] {
  const semicolon = value.indexOf(';');
  return semicolon < 0 ? [value.trim().toLowerCase(), ''] : [value.slice(0, semicolon).trim().toLowerCase(), value.slice(semicolon)];
}

/** The boundary of a `multipart/form-data` Content-Type; anything else → -4010 "body". */
export function boundaryOf(contentType: string | undefined): string {
  const [media, rest] = splitFirst(contentType ?? '');
  if (media !== 'multipart/form-data') malformed(`must be multipart/form-data (got ${media === '' ? 'no Content-Type' : media})`);
  const boundary = headerParams(rest, 'Content-Type').get('boundary');
  if (boundary === undefined) malformed('has no multipart boundary in its Content-Type');
  if (!BOUNDARY.test(boundary)) malformed('has a multipart boundary that is not 1-70 allowed characters');
  return boundary;
}

/** Skips RFC 2046 transport padding (spaces and tabs after a delimiter). */
function skipPadding(body: Buffer, at: number): number {
  let i = at;
  while (i < body.length && (body[i] === SPACE || body[i] === TAB)) i += 1;
  return i;
}

function startsWith(body: Buffer, at: number, prefix: Buffer): boolean {
  return body.length - at >= prefix.length && body.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
}

interface PartHeaders {
  name: string;
  filename: string | undefined;
  contentType: string;
}

/** The header block of one part (CRLF-separated lines, no folding): its disposition and type. */
function partHeaders(block: Buffer): PartHeaders {
  let text: string;
  try {
    text = UTF8.decode(block);
  } catch {
    malformed('has part headers that are not UTF-8');
  }
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of text.split('\r\n')) {
    if (/[\r\n\0]/.test(line)) malformed('has a part header line not ended by CRLF');
    // Obsolete line folding (RFC 9110 section 5.5) is refused rather than unfolded.
    if (line.startsWith(' ') || line.startsWith('\t')) malformed('has a folded part header');
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon);
    if (!TOKEN.test(name)) malformed('has a malformed part header');
    const value = line.slice(colon + 1).trim();
    switch (name.toLowerCase()) {
      case 'content-disposition':
        if (disposition !== undefined) malformed('has a part with two Content-Disposition headers');
        disposition = value;
        break;
      case 'content-type':
        if (contentType !== undefined) malformed('has a part with two Content-Type headers');
        contentType = value;
        break;
      case 'content-transfer-encoding':
        // RFC 7578 section 4.7: deprecated; an encoding other than identity would change the bytes.
        if (!['binary', '8bit', '7bit'].includes(value.toLowerCase())) malformed(`has a part in Content-Transfer-Encoding ${value}`);
        break;
      default:
        // Other headers say nothing B35 uses.
        break;
    }
  }
  if (disposition === undefined) malformed('has a part without Content-Disposition');
  const [kind, rest] = splitFirst(disposition);
  if (kind !== 'form-data') malformed('has a part whose Content-Disposition is not form-data');
  const params = headerParams(rest, 'Content-Disposition');
  const name = params.get('name');
  if (name === undefined || name === '') malformed('has a part without a name');
  return { name, filename: params.get('filename'), contentType: contentType === undefined ? '' : contentType.toLowerCase() };
}

/**
 * The parts of a `multipart/form-data` body. A preamble before the first delimiter and an
 * epilogue after the close delimiter are skipped (RFC 2046); everything between follows the
 * grammar or the body is refused.
 */
export function parseMultipart(body: Buffer, contentType: string | undefined, options: MultipartOptions = {}): MultipartPart[] {
  const maxParts = options.maxParts ?? MAX_MULTIPART_PARTS;
  const boundary = boundaryOf(contentType);
  const dashBoundary = Buffer.from(`--${boundary}`, 'latin1');
  const delimiter = Buffer.concat([CRLF, dashBoundary]);
  if (body.length === 0) malformed('is empty');
  let at: number;
  if (startsWith(body, 0, dashBoundary)) {
    at = dashBoundary.length;
  } else {
    const first = body.indexOf(delimiter);
    if (first < 0) malformed('has no multipart boundary line');
    at = first + delimiter.length;
  }
  const parts: MultipartPart[] = [];
  while (true) {
    // After a delimiter: `--` closes the body, else padding and CRLF open the next part.
    if (body[at] === DASH && body[at + 1] === DASH) {
      const end = skipPadding(body, at + 2);
      if (end !== body.length && !startsWith(body, end, CRLF)) malformed('has bytes after its close delimiter on the same line');
      return parts;
    }
    at = skipPadding(body, at);
    if (at >= body.length - 1) malformed('is truncated');
    if (!startsWith(body, at, CRLF)) malformed('has a boundary line not ended by CRLF');
    at += CRLF.length;
    if (parts.length === maxParts) refuse('PARAM_EXCEEDS_LIMIT_QUANTITY', `body has more than ${maxParts} parts`);
    if (startsWith(body, at, CRLF)) malformed('has a part without headers');
    const window = body.subarray(at, Math.min(body.length, at + MAX_PART_HEADER_BYTES + HEADER_END.length));
    const headerLength = window.indexOf(HEADER_END);
    if (headerLength < 0) {
      if (window.length > MAX_PART_HEADER_BYTES) malformed(`has part headers over ${MAX_PART_HEADER_BYTES} bytes`);
      malformed('is truncated');
    }
    const headers = partHeaders(body.subarray(at, at + headerLength));
    const dataStart = at + headerLength + HEADER_END.length;
    const dataEnd = body.indexOf(delimiter, dataStart);
    if (dataEnd < 0) malformed('is truncated');
    parts.push({ ...headers, data: body.subarray(dataStart, dataEnd) });
    at = dataEnd + delimiter.length;
  }
}
