/**
 * Property: a decimal the operator sends, as a JSON number or as a JSON string, is either kept
 * exactly (read back through the API, it equals decimal.js's canonical value of the text sent) or
 * refused with `{code, msg}`, never changed on the way in. The texts include the ones a double
 * cannot hold (17+ significant digits, beyond 2^53) and the shapes `String(double)` writes.
 */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/answers.js';
import { request, type HttpAnswer } from '../support/clients.js';
import { Operator, type Member } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

// The oracle must never round on its own.
const Exact = Decimal.clone({ precision: 500 });

const RUNS = { numRuns: 120, seed: 42 } as const;
/** Each run is a few HTTP round trips; on a shared 2-core machine a property takes seconds. */
const PROPERTY_TIMEOUT_MS = 120_000;

/** Area A's DECIMAL form, which every operator decimal member takes (docs/operating.md "Values"). */
const DECIMAL_FORM = /^[0-9]{1,20}(\.[0-9]{1,18})?$/;
const FEE_RATE_DECIMALS = 8;
const MAX_FEE_RATE = new Exact('0.1');

const digits = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

/** Any JSON number literal (RFC 8259): sign, 0 or a non-zero-led integer, fraction, exponent. */
const jsonNumberLiteral: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof({ arbitrary: fc.constant(''), weight: 7 }, { arbitrary: fc.constant('-'), weight: 1 }),
    fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 23)).map(([first, rest]) => first + rest)),
    fc.option(digits(1, 22).map((fraction) => `.${fraction}`), { nil: '' }),
    fc.oneof(
      { arbitrary: fc.constant(''), weight: 5 },
      { arbitrary: fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'), digits(1, 2)).map(([e, power]) => e + power), weight: 1 },
    ),
  )
  .map((parts) => parts.join(''));

/** What `String(double)` (and so `JSON.stringify`) writes, `1e-7` and `1.5e+21` included. */
const doubleText: fc.Arbitrary<string> = fc.double({ min: 0, max: 1e25, noNaN: true, noDefaultInfinity: true }).map(String);

/** DECIMAL texts of 1–20 integer and 0–18 fraction digits, lengths uniform: most are beyond a double's 15–17 digits. */
const longDecimal: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 18 }))
  .chain(([whole, fraction]) => fc.tuple(fc.constantFrom(...'123456789'), digits(whole - 1, whole - 1), digits(fraction, fraction)))
  .map(([first, rest, fraction]) => (fraction === '' ? first + rest : `${first}${rest}.${fraction}`));

const decimalText = fc.oneof(
  { arbitrary: jsonNumberLiteral, weight: 3 },
  { arbitrary: longDecimal, weight: 2 },
  { arbitrary: doubleText, weight: 1 },
);

/** docs/spot-api.md "Value formats" canonical text as decimal.js gives it: plain notation, no trailing zeros, "0". */
function canonical(value: Decimal): string {
  if (value.isZero()) return '0';
  const text = value.toFixed();
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

type Outcome = { kept: string } | { code: number };

/** The model: -1100 off the DECIMAL form; -1130 when the target cannot hold the value; else kept. */
function expected(text: string, fits: (value: Decimal) => boolean): Outcome {
  if (!DECIMAL_FORM.test(text)) return { code: -1100 };
  const value = new Exact(text);
  return fits(value) ? { kept: canonical(value) } : { code: -1130 };
}

/** The two ways a client sends a decimal member: the JSON number literal, or a JSON string. */
const FORMS = [
  ['JSON number', (text: string) => text],
  ['JSON string', (text: string) => JSON.stringify(text)],
] as const;

function refusal(answer: HttpAnswer): Outcome {
  expect(answer.status, answer.text).toBe(400);
  const body = answer.body as { code: number; msg: string };
  expect(Object.keys(body).sort()).toEqual(['code', 'msg']);
  return { code: body.code };
}

describe('operator decimal members against decimal.js: kept exactly or refused, never changed', () => {
  let t: TestServer;
  let op: Operator;
  let holder: Member;
  const precisions = { XPROP8: 8, XPROP18: 18 } as const;

  const send = (method: string, path: string, bodyText: string): Promise<HttpAnswer> =>
    request(`${t.url}/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: bodyText,
    });

  /** The holder's newest deposit (A21 lists the newest first). */
  const newestDeposit = async (): Promise<{ orderId: string; quantity: string } | undefined> =>
    ok<{ orderId: string; quantity: string }[]>(await holder.client.signed('GET', '/openapi/v1/depositOrders', { limit: 1 }))[0];

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    for (const [asset, precision] of Object.entries(precisions)) await op.ok('POST', '/assets', { asset, precision, chains: [asset] });
    holder = await op.member();
    await op.deposit(holder.accountId, 'XPROP8', '1');
  });
  afterAll(async () => t.stop());

  it('when a deposit amount is any decimal text, then the deposit is exactly its value or refused and nothing is credited', async () => {
    await fc.assert(
      fc.asyncProperty(decimalText, fc.constantFrom(...(Object.keys(precisions) as (keyof typeof precisions)[])), async (text, asset) => {
        for (const [, form] of FORMS) {
          // Read before each request: fast-check's shrinking reruns the body, so no state is carried.
          const before = await newestDeposit();
          const answer = await send('POST', '/deposits', `{"accountId":${holder.accountId},"asset":"${asset}","amount":${form(text)}}`);
          const after = await newestDeposit();
          let outcome: Outcome;
          if (answer.status === 200) {
            expect(after?.orderId).toBe((answer.body as { depositId: string }).depositId);
            outcome = { kept: after?.quantity ?? '' };
            // Kept means exactly the value sent, whatever the model says.
            expect(outcome.kept).toBe(canonical(new Exact(text)));
          } else {
            outcome = refusal(answer);
            expect(after).toEqual(before);
          }
          expect(outcome).toEqual(expected(text, (value) => value.gt(0) && value.decimalPlaces() <= precisions[asset]));
        }
      }),
      RUNS,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('when a fee rate is any decimal text, then the rate is exactly its value or refused and the rate is unchanged', async () => {
    const rates = async (): Promise<{ makerFeeRate: string; takerFeeRate: string }> =>
      ok(await send('PATCH', `/accounts/${holder.accountId}`, '{"takerFeeRate":"0.002"}'));
    await fc.assert(
      fc.asyncProperty(decimalText, async (text) => {
        for (const [, form] of FORMS) {
          const before = await rates();
          const answer = await send('PATCH', `/accounts/${holder.accountId}`, `{"makerFeeRate":${form(text)}}`);
          const after = await rates();
          let outcome: Outcome;
          if (answer.status === 200) {
            outcome = { kept: after.makerFeeRate };
            expect((answer.body as { makerFeeRate: string }).makerFeeRate).toBe(after.makerFeeRate);
            expect(outcome.kept).toBe(canonical(new Exact(text)));
          } else {
            outcome = refusal(answer);
            expect(after).toEqual(before);
          }
          expect(outcome).toEqual(expected(text, (value) => value.lte(MAX_FEE_RATE) && value.decimalPlaces() <= FEE_RATE_DECIMALS));
        }
      }),
      RUNS,
    );
  }, PROPERTY_TIMEOUT_MS);
});
