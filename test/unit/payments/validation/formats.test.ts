import { describe, expect, it } from 'vitest';
import {
  CLIENT_ID_PATTERN,
  ageInYears,
  isEmail,
  isHttpUrl,
  isValidIban,
  parseIsoDate,
  startOfUtcDay,
} from '../../../../src/payments/validation/formats.js';

describe('isEmail', () => {
  it.each([
    'pay@acme.mx',
    'ops.team+bourse@mail.example.com',
    "o'brien@example.ie",
    'a@b.co',
    'x_y-z@sub-domain.example.org',
    `${'l'.repeat(64)}@example.com`,
  ])('accepts %s', (text) => {
    expect(isEmail(text)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['no @', 'acme.mx'],
    ['no local part', '@acme.mx'],
    ['no domain', 'pay@'],
    ['single-label domain', 'pay@localhost'],
    ['two @', 'pay@@acme.mx'],
    ['leading dot', '.pay@acme.mx'],
    ['double dot in local part', 'pay..ops@acme.mx'],
    ['trailing dot in local part', 'pay.@acme.mx'],
    ['space', 'pay ops@acme.mx'],
    ['label starting with a hyphen', 'pay@-acme.mx'],
    ['numeric TLD', 'pay@acme.123'],
    ['IP literal', 'pay@[127.0.0.1]'],
    ['local part over 64', `${'l'.repeat(65)}@example.com`],
    ['display-name form', 'Pay <pay@acme.mx>'],
  ])('refuses %s (%j)', (_why, text) => {
    expect(isEmail(text)).toBe(false);
  });
});

describe('isHttpUrl', () => {
  it.each([
    'http://127.0.0.1:8080/done',
    'https://merchant.example/bourse?x=1#top',
    'HTTPS://MERCHANT.EXAMPLE/',
    'https://[::1]:8443/kyc',
    'http://localhost',
  ])('accepts %s', (text) => {
    expect(isHttpUrl(text)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['relative', '/callback'],
    ['no scheme', 'merchant.example/done'],
    ['other scheme', 'ftp://merchant.example/'],
    ['javascript', 'javascript:alert(1)'],
    ['without slashes', 'http:merchant.example'],
    ['no host', 'http://'],
    ['embedded space', 'https://merchant.example/a b'],
    ['embedded tab', 'https://merchant.example/\tb'],
    ['bad port', 'https://merchant.example:99999/'],
  ])('refuses %s (%j)', (_why, text) => {
    expect(isHttpUrl(text)).toBe(false);
  });
});

describe('CLIENT_ID_PATTERN', () => {
  it.each(['claim-0001', 'inv_2025.06:01', 'A', 'x'.repeat(64)])('accepts %s', (text) => {
    expect(CLIENT_ID_PATTERN.test(text)).toBe(true);
  });

  it.each(['', 'x'.repeat(65), 'a b', 'a/b', 'ñ', 'a+b'])('refuses %j', (text) => {
    expect(CLIENT_ID_PATTERN.test(text)).toBe(false);
  });
});

describe('parseIsoDate', () => {
  it.each([
    ['2024-02-29', 2024, 2, 29],
    ['2023-12-31', 2023, 12, 31],
    ['2000-02-29', 2000, 2, 29],
    ['1970-01-01', 1970, 1, 1],
    ['0099-03-15', 99, 3, 15],
  ])('parses %s', (text, y, m, d) => {
    const expected = new Date(0);
    expected.setUTCFullYear(y, m - 1, d);
    expect(parseIsoDate(text)).toEqual({ y, m, d, ms: expected.getTime() });
  });

  it('puts a two-digit year in the first century, not the twentieth', () => {
    expect(new Date(parseIsoDate('0099-03-15')!.ms).getUTCFullYear()).toBe(99);
  });

  it.each([
    ['not a leap year', '2023-02-29'],
    ['century not a leap year', '1900-02-29'],
    ['month 13', '2024-13-01'],
    ['month 00', '2024-00-10'],
    ['day 00', '2024-01-00'],
    ['31 April', '2024-04-31'],
    ['unpadded month', '2024-1-01'],
    ['unpadded day', '2024-01-1'],
    ['year 0000', '0000-01-01'],
    ['five-digit year', '12024-01-01'],
    ['slashes', '2024/01/01'],
    ['with time', '2024-01-01T00:00:00Z'],
    ['compact', '20240101'],
    ['padded', ' 2024-01-01'],
    ['empty', ''],
    ['non-ASCII digits', '２０２４-01-01'],
  ])('refuses %s (%j)', (_why, text) => {
    expect(parseIsoDate(text)).toBeUndefined();
  });
});

describe('startOfUtcDay', () => {
  it('truncates to midnight UTC', () => {
    expect(startOfUtcDay(Date.UTC(2025, 5, 15, 23, 59, 59, 999))).toBe(Date.UTC(2025, 5, 15));
    expect(startOfUtcDay(Date.UTC(2025, 5, 15))).toBe(Date.UTC(2025, 5, 15));
  });
});

describe('ageInYears', () => {
  it.each([
    ['on the birthday', { y: 2000, m: 6, d: 15 }, Date.UTC(2025, 5, 15), 25],
    ['the day before the birthday', { y: 2000, m: 6, d: 16 }, Date.UTC(2025, 5, 15, 23, 59), 24],
    ['earlier month', { y: 2000, m: 7, d: 1 }, Date.UTC(2025, 5, 30), 24],
    ['later month', { y: 2000, m: 5, d: 31 }, Date.UTC(2025, 5, 1), 25],
    ['29 February, non-leap year, 28 February', { y: 2004, m: 2, d: 29 }, Date.UTC(2025, 1, 28), 20],
    ['29 February, non-leap year, 1 March', { y: 2004, m: 2, d: 29 }, Date.UTC(2025, 2, 1), 21],
    ['born in the future', { y: 2026, m: 1, d: 1 }, Date.UTC(2025, 5, 15), -1],
  ])('%s', (_why, birth, todayMs, age) => {
    expect(ageInYears(birth, todayMs)).toBe(age);
  });
});

describe('isValidIban', () => {
  it.each([
    ['United Kingdom', 'GB82WEST12345698765432'],
    ['Germany', 'DE89370400440532013000'],
    ['France, letter in the BBAN', 'FR1420041010050500013M02606'],
    ['Netherlands', 'NL91ABNA0417164300'],
    ['Belgium', 'BE68539007547034'],
    ['Norway, shortest (15)', 'NO9386011117947'],
    ['Malta (31)', 'MT84MALT011000012345MTLCAST001S'],
    ['Saint Lucia (32)', 'LC55HEMM000100010012001200023015'],
    ['Kosovo, a non-ISO country prefix', 'XK051212012345678906'],
    ['longest allowed (34)', 'GB93WEST12345678901234567890123456'],
  ])('accepts %s %s', (_why, text) => {
    expect(isValidIban(text)).toBe(true);
  });

  it.each([
    ['broken check digits (GB)', 'GB83WEST12345698765432'],
    ['broken check digits (DE)', 'DE88370400440532013000'],
    ['mistyped BBAN digit', 'DE89370400440532013001'],
    ['transposed digits', 'GB82WEST12345698765423'],
    ['check digits 01 that satisfy mod-97', 'GB01WEST12345698765435'],
    ['with spaces', 'GB82 WEST 1234 5698 7654 32'],
    ['lower case', 'gb82west12345698765432'],
    ['lower-case letters in the BBAN', 'GB82west12345698765432'],
    ['too short (14), mod-97 fine', 'NO561234567890'],
    ['too long (35)', 'GB94WEST123456789012345678901234567'],
    ['digits for country', '1282WEST12345698765432'],
    ['letters for check digits', 'GBXXWEST12345698765432'],
    ['punctuation', 'GB82-WEST-12345698765432'],
    ['empty', ''],
  ])('refuses %s (%j)', (_why, text) => {
    expect(isValidIban(text)).toBe(false);
  });
});
