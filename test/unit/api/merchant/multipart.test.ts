import { describe, expect, it } from 'vitest';
import { boundaryOf, MAX_MULTIPART_PARTS, MAX_PART_HEADER_BYTES, parseMultipart } from '../../../../src/api/merchant/multipart.js';
import { PaymentError } from '../../../../src/core/payment-errors.js';

const BOUNDARY = '----bourse-test-7f3a';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);

interface PartSpec {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

/** A body as a client writes it: each part after `--boundary CRLF`, headers, blank line, data, CRLF; then `--boundary--`. */
function bodyOf(parts: readonly PartSpec[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const headers = [disposition, ...(part.type === undefined ? [] : [`Content-Type: ${part.type}`])].join('\r\n');
    chunks.push(Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`, 'utf8'), Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'), Buffer.from('\r\n', 'latin1'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return Buffer.concat(chunks);
}

/** The area B error `run` throws, as `[code, detail]`. */
function refusal(run: () => unknown): [number, string] {
  try {
    run();
  } catch (error) {
    if (error instanceof PaymentError) return [error.code, error.detail];
    throw error;
  }
  throw new Error('expected a PaymentError');
}

describe('parseMultipart: well-formed bodies', () => {
  it('when a body has a field and a file, then each part has its name, filename, type and exact bytes', () => {
    const parts = parseMultipart(bodyOf([{ name: 'orderId', data: '10000042' }, { name: 'files', filename: 'receipt.png', type: 'image/png', data: PNG }]), TYPE);
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ['orderId', undefined, ''],
      ['files', 'receipt.png', 'image/png'],
    ]);
    expect(parts[0].data.toString('utf8')).toBe('10000042');
    expect(parts[1].data.equals(PNG)).toBe(true);
  });

  it('when several files are sent under one name, then each is its own part, in order, with CRLF inside data kept', () => {
    const inner = Buffer.from('line one\r\nline two\r\n--not-the-boundary\r\n', 'latin1');
    const parts = parseMultipart(
      bodyOf([
        { name: 'files', filename: 'a.png', type: 'image/png', data: PNG },
        { name: 'files', filename: 'b.pdf', type: 'application/pdf', data: Buffer.concat([Buffer.from('%PDF-1.7\r\n'), inner]) },
        { name: 'files', filename: 'c.jpg', type: 'image/jpeg', data: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) },
      ]),
      TYPE,
    );
    expect(parts.map((p) => p.filename)).toEqual(['a.png', 'b.pdf', 'c.jpg']);
    expect(parts[1].data.subarray(10).equals(inner)).toBe(true);
    expect(parts[2].data.length).toBe(4);
  });

  it('when a part is empty, a preamble and an epilogue are present, and the boundary is quoted, then they parse', () => {
    const body = Buffer.concat([Buffer.from('this is a preamble\r\n', 'latin1'), bodyOf([{ name: 'files', filename: '', data: '' }], 'b:1 2'), Buffer.from('epilogue', 'latin1')]);
    const parts = parseMultipart(body, 'Multipart/Form-Data; charset=utf-8; boundary="b:1 2"');
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ name: 'files', filename: '' });
    expect(parts[0].data.length).toBe(0);
  });

  it('when names are escaped or unquoted, and headers vary in case and padding, then the values are read as sent', () => {
    const body = Buffer.from(
      [`--${BOUNDARY}  `, 'content-disposition: FORM-DATA;name=orderType ; filename="C:\\docs\\a \\"x\\".pdf"', 'X-Other: ignored', '', 'fiat_to_crypto', `--${BOUNDARY}--`].join('\r\n'),
      'utf8',
    );
    const [part] = parseMultipart(body, TYPE);
    expect([part.name, part.filename, part.data.toString()]).toEqual(['orderType', 'C:\\docs\\a "x".pdf', 'fiat_to_crypto']);
  });

  it('when the body has no parts (only the close delimiter), then it is an empty list', () => {
    expect(parseMultipart(Buffer.from(`--${BOUNDARY}--`, 'latin1'), TYPE)).toEqual([]);
  });
});

describe('parseMultipart: refusals (-4010 "body", -4012 over the part bound)', () => {
  const good = bodyOf([{ name: 'files', filename: 'a.png', data: PNG }]);

  it.each([
    ['no Content-Type', undefined, 'body must be multipart/form-data (got no Content-Type)'],
    ['another media type', 'application/json', 'body must be multipart/form-data (got application/json)'],
    ['no boundary', 'multipart/form-data', 'body has no multipart boundary in its Content-Type'],
    ['an empty boundary', 'multipart/form-data; boundary=""', 'body has a multipart boundary that is not 1-70 allowed characters'],
    ['a boundary over 70 characters', `multipart/form-data; boundary=${'x'.repeat(71)}`, 'body has a multipart boundary that is not 1-70 allowed characters'],
    ['two boundaries', 'multipart/form-data; boundary=a; boundary=b', 'body repeats boundary in its Content-Type header'],
  ])('when the Content-Type has %s, then -4010', (_what, contentType, detail) => {
    expect(refusal(() => parseMultipart(good, contentType))).toEqual([-4010, detail]);
    expect(refusal(() => boundaryOf(contentType))).toEqual([-4010, detail]);
  });

  it.each([
    ['the body is empty', Buffer.alloc(0), 'body is empty'],
    ['the body never names the boundary', Buffer.from('hello', 'latin1'), 'body has no multipart boundary line'],
    ['the body stops inside a part', good.subarray(0, good.length - 30), 'body is truncated'],
    ['the body stops inside the headers', good.subarray(0, 40), 'body is truncated'],
    ['the body stops after a boundary', Buffer.from(`--${BOUNDARY}`, 'latin1'), 'body is truncated'],
    ['the close delimiter is cut short', good.subarray(0, good.length - 3), 'body is truncated'],
  ])('when %s, then -4010', (_what, body, detail) => {
    expect(refusal(() => parseMultipart(body, TYPE))).toEqual([-4010, detail]);
  });

  it.each([
    ['lines end in LF only', `--${BOUNDARY}\nContent-Disposition: form-data; name="a"\n\nx\n--${BOUNDARY}--`, 'body has a boundary line not ended by CRLF'],
    ['a header line has a bare LF', `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\nX: y\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has a part header line not ended by CRLF'],
    ['a part has no headers', `--${BOUNDARY}\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has a part without headers'],
    ['a part has no Content-Disposition', `--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has a part without Content-Disposition'],
    ['a disposition is not form-data', `--${BOUNDARY}\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has a part whose Content-Disposition is not form-data'],
    ['a part has no name', `--${BOUNDARY}\r\nContent-Disposition: form-data; filename="a.png"\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has a part without a name'],
    ['a quoted name is not closed', `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has an unterminated quoted string in its Content-Disposition header'],
    ['a header is folded', `--${BOUNDARY}\r\nContent-Disposition: form-data;\r\n name="a"\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has a folded part header'],
    ['a header has no colon', `--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has a malformed part header'],
    ['a part is base64-encoded', `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\nContent-Transfer-Encoding: base64\r\n\r\neA==\r\n--${BOUNDARY}--`, 'body has a part in Content-Transfer-Encoding base64'],
    ['the boundary line runs on', `--${BOUNDARY}x\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${BOUNDARY}--`, 'body has a boundary line not ended by CRLF'],
    ['the close delimiter runs on', `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${BOUNDARY}--junk`, 'body has bytes after its close delimiter on the same line'],
  ])('when %s, then -4010', (_what, text, detail) => {
    expect(refusal(() => parseMultipart(Buffer.from(text, 'latin1'), TYPE))).toEqual([-4010, detail]);
  });

  it('when part headers are not UTF-8, then -4010', () => {
    const body = Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="`, 'latin1'), Buffer.from([0xff]), Buffer.from(`"\r\n\r\nx\r\n--${BOUNDARY}--`, 'latin1')]);
    expect(refusal(() => parseMultipart(body, TYPE))).toEqual([-4010, 'body has part headers that are not UTF-8']);
  });

  it('when one part’s headers exceed the bound, then -4010 without searching further', () => {
    const body = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\nX-Pad: ${'p'.repeat(MAX_PART_HEADER_BYTES)}\r\n\r\nx\r\n--${BOUNDARY}--`, 'latin1');
    expect(refusal(() => parseMultipart(body, TYPE))).toEqual([-4010, `body has part headers over ${MAX_PART_HEADER_BYTES} bytes`]);
  });

  it(`when a body has ${MAX_MULTIPART_PARTS} parts, then it parses; with one more, then -4012`, () => {
    const parts = (n: number): PartSpec[] => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, data: 'x' }));
    expect(parseMultipart(bodyOf(parts(MAX_MULTIPART_PARTS)), TYPE)).toHaveLength(MAX_MULTIPART_PARTS);
    expect(refusal(() => parseMultipart(bodyOf(parts(MAX_MULTIPART_PARTS + 1)), TYPE))).toEqual([-4012, `body has more than ${MAX_MULTIPART_PARTS} parts`]);
    expect(refusal(() => parseMultipart(bodyOf(parts(3)), TYPE, { maxParts: 2 }))).toEqual([-4012, 'body has more than 2 parts']);
  });
});
