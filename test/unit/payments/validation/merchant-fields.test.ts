import { describe, expect, it } from 'vitest';
import { PaymentError } from '../../../../src/core/payment-errors.js';
import { validateMerchantFieldList, type MerchantType } from '../../../../src/payments/validation/merchant-fields.js';

/** 2025-06-15 12:00 UTC. */
const TODAY = Date.UTC(2025, 5, 15, 12);

const COMMON = {
  idNoType: 'RFC',
  cardIssueDate: '2020-01-10',
  cardExpireDate: '2030-01-10',
  address: 'Av. Reforma 222, Juárez',
  city: 'Ciudad de México',
  state: 'CDMX',
  zipCode: '06600',
  phone: '+525512345678',
};

const INDIVIDUAL = {
  ...COMMON,
  idNo: 'PEPJ800101AB1',
  birthday: '1980-01-01',
  name: 'Juan',
  fatherSurname: 'Pérez',
  motherSurname: 'López',
};

const BUSINESS = {
  ...COMMON,
  idNo: 'ACM010101AB1',
  companyName: 'Acme México S.A. de C.V.',
  aliasName: 'Acme MX',
  companyType: 'S.A. de C.V.',
  incorporationDate: '2001-01-01',
};

type Patch = Record<string, unknown>;

function withPatch(base: Record<string, unknown>, patch: Patch): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [member, value] of Object.entries(patch)) {
    if (value === undefined) delete result[member];
    else result[member] = value;
  }
  return result;
}

function baseOf(type: MerchantType): Record<string, unknown> {
  return type === 'INDIVIDUAL' ? INDIVIDUAL : BUSINESS;
}

/** The code of the PaymentError `run` throws; fails the test if it throws anything else or nothing. */
function codeOf(run: () => unknown): number {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentError);
    return (error as PaymentError).code;
  }
  throw new Error('expected a PaymentError');
}

function detailOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as PaymentError).detail;
  }
  throw new Error('expected a PaymentError');
}

describe('validateMerchantFieldList: accepted input', () => {
  it('returns an individual’s members in table order', () => {
    const result = validateMerchantFieldList(INDIVIDUAL, 'INDIVIDUAL', true, TODAY);
    expect(result).toEqual(INDIVIDUAL);
    expect(Object.keys(result)).toEqual([
      'idNoType', 'idNo', 'cardIssueDate', 'cardExpireDate', 'address', 'city', 'state', 'zipCode', 'phone',
      'birthday', 'name', 'fatherSurname', 'motherSurname',
    ]);
  });

  it('returns a business’s members in table order', () => {
    const result = validateMerchantFieldList(BUSINESS, 'BUSINESS', true, TODAY);
    expect(result).toEqual(BUSINESS);
    expect(Object.keys(result)).toEqual([
      'idNoType', 'idNo', 'cardIssueDate', 'cardExpireDate', 'address', 'city', 'state', 'zipCode', 'phone',
      'companyName', 'aliasName', 'companyType', 'incorporationDate',
    ]);
  });

  it('trims every member', () => {
    const padded = Object.fromEntries(Object.entries(INDIVIDUAL).map(([k, v]) => [k, `  ${v}\t`]));
    expect(validateMerchantFieldList(padded, 'INDIVIDUAL', true, TODAY)).toEqual(INDIVIDUAL);
  });

  it('drops unknown members and the other merchant type’s members', () => {
    const input = { ...INDIVIDUAL, companyName: 'Ignored', nickname: 'JP', merchantType: 'BUSINESS' };
    expect(validateMerchantFieldList(input, 'INDIVIDUAL', true, TODAY)).toEqual(INDIVIDUAL);
  });

  it('checks idNo length by the merchant type from B13, not a merchantType member', () => {
    const input = { ...BUSINESS, merchantType: 'INDIVIDUAL' };
    expect(validateMerchantFieldList(input, 'BUSINESS', true, TODAY).idNo).toBe('ACM010101AB1');
  });

  it('leaves out an absent optional email, keeps a given one first', () => {
    expect(validateMerchantFieldList(INDIVIDUAL, 'INDIVIDUAL', true, TODAY)).not.toHaveProperty('email');
    const result = validateMerchantFieldList({ ...INDIVIDUAL, email: ' kyc@acme.mx ' }, 'INDIVIDUAL', false, TODAY);
    expect(result.email).toBe('kyc@acme.mx');
    expect(Object.keys(result)[0]).toBe('email');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
  ])('accepts an %s motherSurname as the value ""', (_why, motherSurname) => {
    const result = validateMerchantFieldList({ ...INDIVIDUAL, motherSurname }, 'INDIVIDUAL', true, TODAY);
    expect(result.motherSurname).toBe('');
  });

  it.each<[string, MerchantType, Patch]>([
    ['CURP of 18', 'INDIVIDUAL', { idNoType: 'CURP', idNo: 'PEPJ800101HDFRRN09' }],
    ['CURP for a business', 'BUSINESS', { idNoType: 'CURP', idNo: 'PEPJ800101HDFRRN09' }],
    ['lower-case RFC', 'INDIVIDUAL', { idNo: 'pepj800101ab1' }],
    ['card issued today', 'INDIVIDUAL', { cardIssueDate: '2025-06-15' }],
    ['card expiring the day after issue', 'INDIVIDUAL', { cardIssueDate: '2025-06-14', cardExpireDate: '2025-06-15' }],
    ['expired card (the table does not refuse it)', 'INDIVIDUAL', { cardExpireDate: '2021-01-01' }],
    ['address of 200', 'INDIVIDUAL', { address: 'a'.repeat(200) }],
    ['city of 64 accented characters', 'INDIVIDUAL', { city: 'é'.repeat(64) }],
    ['state of 64 astral characters', 'INDIVIDUAL', { state: '😀'.repeat(64) }],
    ['zipCode of 3', 'INDIVIDUAL', { zipCode: 'A1B' }],
    ['zipCode of 10', 'INDIVIDUAL', { zipCode: '1234567890' }],
    ['phone of 7 digits', 'INDIVIDUAL', { phone: '5512345' }],
    ['phone of 15 digits with +', 'INDIVIDUAL', { phone: '+123456789012345' }],
    ['turning 18 today', 'INDIVIDUAL', { birthday: '2007-06-15' }],
    ['aged 120, 121 tomorrow', 'INDIVIDUAL', { birthday: '1904-06-16' }],
    ['name of 64', 'INDIVIDUAL', { name: 'n'.repeat(64) }],
    ['companyName of 128', 'BUSINESS', { companyName: 'c'.repeat(128) }],
    ['companyType of 32', 'BUSINESS', { companyType: 't'.repeat(32) }],
    ['incorporated today', 'BUSINESS', { incorporationDate: '2025-06-15' }],
    ['null for an optional email', 'INDIVIDUAL', { email: null }],
  ])('accepts %s', (_why, type, patch) => {
    expect(() => validateMerchantFieldList(withPatch(baseOf(type), patch), type, true, TODAY)).not.toThrow();
  });
});

describe('validateMerchantFieldList: refusals', () => {
  it.each<[string, MerchantType, boolean, Patch, number]>([
    // shape
    ['a number member', 'INDIVIDUAL', true, { zipCode: 6600 }, -4010],
    ['an object member', 'BUSINESS', true, { address: { line: 'x' } }, -4010],
    ['an unknown non-string member', 'INDIVIDUAL', true, { extra: 1 }, -4010],
    ['a boolean member', 'INDIVIDUAL', true, { phone: true }, -4010],
    // email
    ['no email and none on file', 'INDIVIDUAL', false, {}, -4010],
    ['empty email and none on file', 'BUSINESS', false, { email: '  ' }, -4010],
    ['an invalid email', 'INDIVIDUAL', true, { email: 'not-an-email' }, -4010],
    ['an email over 128', 'INDIVIDUAL', true, { email: `${'a'.repeat(64)}@${'b'.repeat(60)}.com` }, -4011],
    // idNoType
    ['no idNoType', 'INDIVIDUAL', true, { idNoType: undefined }, -4010],
    ['idNoType INE', 'INDIVIDUAL', true, { idNoType: 'INE' }, -4010],
    ['idNoType in lower case', 'INDIVIDUAL', true, { idNoType: 'rfc' }, -4010],
    // idNo
    ['no idNo', 'INDIVIDUAL', true, { idNo: undefined }, -4010],
    ['empty idNo', 'INDIVIDUAL', true, { idNo: '' }, -4010],
    ['an individual RFC of 12', 'INDIVIDUAL', true, { idNo: 'PEPJ800101AB' }, -4013],
    ['a business RFC of 13', 'BUSINESS', true, { idNo: 'ACM010101AB12' }, -4013],
    ['a CURP of 17', 'INDIVIDUAL', true, { idNoType: 'CURP', idNo: 'PEPJ800101HDFRRN0' }, -4013],
    ['an RFC of 13 for CURP', 'INDIVIDUAL', true, { idNoType: 'CURP' }, -4013],
    ['an RFC with a hyphen', 'INDIVIDUAL', true, { idNo: 'PEPJ-800101AB' }, -4013],
    ['an RFC with Ñ', 'INDIVIDUAL', true, { idNo: 'PEÑJ800101AB1' }, -4013],
    // card dates
    ['no cardIssueDate', 'INDIVIDUAL', true, { cardIssueDate: undefined }, -4010],
    ['cardIssueDate 29 Feb 2023', 'INDIVIDUAL', true, { cardIssueDate: '2023-02-29' }, -4010],
    ['cardIssueDate as dd/MM/yyyy', 'INDIVIDUAL', true, { cardIssueDate: '10/01/2020' }, -4010],
    ['cardIssueDate tomorrow', 'INDIVIDUAL', true, { cardIssueDate: '2025-06-16' }, -4010],
    ['no cardExpireDate', 'INDIVIDUAL', true, { cardExpireDate: undefined }, -4010],
    ['cardExpireDate month 13', 'INDIVIDUAL', true, { cardExpireDate: '2024-13-01' }, -4010],
    ['cardExpireDate unpadded', 'INDIVIDUAL', true, { cardExpireDate: '2030-1-10' }, -4010],
    ['cardExpireDate equal to issue', 'INDIVIDUAL', true, { cardExpireDate: '2020-01-10' }, -4010],
    ['cardExpireDate before issue', 'INDIVIDUAL', true, { cardExpireDate: '2019-12-31' }, -4010],
    // address, city, state
    ['no address', 'INDIVIDUAL', true, { address: undefined }, -4010],
    ['address over 200', 'INDIVIDUAL', true, { address: 'a'.repeat(201) }, -4011],
    ['no city', 'BUSINESS', true, { city: '' }, -4010],
    ['city over 64', 'INDIVIDUAL', true, { city: 'é'.repeat(65) }, -4011],
    ['no state', 'INDIVIDUAL', true, { state: null }, -4010],
    ['state over 64', 'INDIVIDUAL', true, { state: 's'.repeat(65) }, -4011],
    // zipCode
    ['no zipCode', 'INDIVIDUAL', true, { zipCode: undefined }, -4010],
    ['zipCode of 2', 'INDIVIDUAL', true, { zipCode: '12' }, -4023],
    ['zipCode of 11', 'INDIVIDUAL', true, { zipCode: '12345678901' }, -4023],
    ['zipCode with a space', 'INDIVIDUAL', true, { zipCode: 'SW1A 1AA' }, -4023],
    ['zipCode with a hyphen', 'INDIVIDUAL', true, { zipCode: '12345-6789' }, -4023],
    // phone
    ['no phone', 'INDIVIDUAL', true, { phone: undefined }, -4010],
    ['phone of 6 digits', 'INDIVIDUAL', true, { phone: '123456' }, -4021],
    ['phone of 16 digits', 'INDIVIDUAL', true, { phone: '+1234567890123456' }, -4021],
    ['phone with spaces', 'INDIVIDUAL', true, { phone: '+52 55 1234 5678' }, -4021],
    ['phone with a trailing +', 'INDIVIDUAL', true, { phone: '5512345678+' }, -4021],
    ['phone with letters', 'INDIVIDUAL', true, { phone: '55CALLNOW1' }, -4021],
    // business members
    ['no companyName', 'BUSINESS', true, { companyName: undefined }, -4010],
    ['companyName over 128', 'BUSINESS', true, { companyName: 'c'.repeat(129) }, -4011],
    ['no aliasName', 'BUSINESS', true, { aliasName: '' }, -4010],
    ['aliasName over 64', 'BUSINESS', true, { aliasName: 'a'.repeat(65) }, -4011],
    ['no companyType', 'BUSINESS', true, { companyType: undefined }, -4010],
    ['companyType over 32', 'BUSINESS', true, { companyType: 't'.repeat(33) }, -4011],
    ['no incorporationDate', 'BUSINESS', true, { incorporationDate: undefined }, -4010],
    ['incorporationDate not a date', 'BUSINESS', true, { incorporationDate: '2001-02-30' }, -4010],
    ['incorporationDate tomorrow', 'BUSINESS', true, { incorporationDate: '2025-06-16' }, -4010],
    // individual members
    ['no birthday', 'INDIVIDUAL', true, { birthday: undefined }, -4010],
    ['birthday not a date', 'INDIVIDUAL', true, { birthday: '1980-02-30' }, -4010],
    ['aged 17, 18 tomorrow', 'INDIVIDUAL', true, { birthday: '2007-06-16' }, -4010],
    ['aged 121', 'INDIVIDUAL', true, { birthday: '1904-06-15' }, -4010],
    ['born in the future', 'INDIVIDUAL', true, { birthday: '2030-01-01' }, -4010],
    ['no name', 'INDIVIDUAL', true, { name: undefined }, -4010],
    ['name over 64', 'INDIVIDUAL', true, { name: 'n'.repeat(65) }, -4011],
    ['no fatherSurname', 'INDIVIDUAL', true, { fatherSurname: ' ' }, -4010],
    ['fatherSurname over 64', 'INDIVIDUAL', true, { fatherSurname: 'f'.repeat(65) }, -4011],
    ['omitted motherSurname', 'INDIVIDUAL', true, { motherSurname: undefined }, -4010],
    ['null motherSurname', 'INDIVIDUAL', true, { motherSurname: null }, -4010],
    ['motherSurname over 64', 'INDIVIDUAL', true, { motherSurname: 'm'.repeat(65) }, -4011],
  ])('refuses %s', (_why, type, hasEmail, patch, code) => {
    expect(codeOf(() => validateMerchantFieldList(withPatch(baseOf(type), patch), type, hasEmail, TODAY))).toBe(code);
  });

  it('names the member in the detail', () => {
    const run = (): unknown => validateMerchantFieldList(withPatch(INDIVIDUAL, { zipCode: 5 }), 'INDIVIDUAL', true, TODAY);
    expect(detailOf(run)).toContain('fieldList.zipCode');
    const missing = (): unknown =>
      validateMerchantFieldList(withPatch(BUSINESS, { companyType: undefined }), 'BUSINESS', true, TODAY);
    expect(detailOf(missing)).toContain('fieldList.companyType');
  });

  it('does not require the business members of an individual, nor the reverse', () => {
    expect(() => validateMerchantFieldList(INDIVIDUAL, 'INDIVIDUAL', true, TODAY)).not.toThrow();
    expect(() => validateMerchantFieldList(BUSINESS, 'BUSINESS', true, TODAY)).not.toThrow();
    expect(codeOf(() => validateMerchantFieldList(INDIVIDUAL, 'BUSINESS', true, TODAY))).toBe(-4013);
  });
});

describe('validateMerchantFieldList: first failure in table order wins', () => {
  it.each<[string, MerchantType, boolean, Patch, number, string]>([
    ['email before idNo', 'INDIVIDUAL', true, { email: 'bad', idNo: 'X' }, -4010, 'fieldList.email'],
    ['idNo before zipCode', 'INDIVIDUAL', true, { idNo: 'X', zipCode: '1' }, -4013, 'fieldList.idNo'],
    ['zipCode before phone', 'INDIVIDUAL', true, { zipCode: '1', phone: '1' }, -4023, 'fieldList.zipCode'],
    ['phone before the name', 'INDIVIDUAL', true, { phone: '1', name: 'n'.repeat(65) }, -4021, 'fieldList.phone'],
    ['address length before zipCode', 'BUSINESS', true, { address: 'a'.repeat(201), zipCode: '1' }, -4011, 'fieldList.address'],
    ['issue date before the address', 'BUSINESS', true, { cardIssueDate: '2099-01-01', address: undefined }, -4010, 'fieldList.cardIssueDate'],
    ['the shape of any member first', 'INDIVIDUAL', true, { idNo: 'X', motherSurname: 7 }, -4010, 'fieldList.motherSurname'],
  ])('%s', (_why, type, hasEmail, patch, code, detail) => {
    const run = (): unknown => validateMerchantFieldList(withPatch(baseOf(type), patch), type, hasEmail, TODAY);
    expect(codeOf(run)).toBe(code);
    expect(detailOf(run)).toContain(detail);
  });
});
