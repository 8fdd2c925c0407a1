import { describe, expect, it } from 'vitest';
import { PaymentError } from '../../../../src/core/payment-errors.js';
import {
  BENEFICIARY_TEMPLATES,
  templateOf,
  validateBeneficiaryFields,
} from '../../../../src/payments/validation/beneficiary-fields.js';

const SPEI = {
  'CLABE number': '012180001234567891',
  'Account number/card': '4152313412345678',
  'Beneficiary Name': 'Juan Perez',
};

const WIRE = {
  'Account Owner Type': 'Individual',
  'Account Number': '000123456789',
  'Routing Number': '021000021',
  'Bank Name': 'JPMorgan Chase',
  'Bank Country/Region': 'US',
  firstName: 'Jane',
  lastName: 'Doe',
  businessName: '',
  'Street Line1': '270 Park Avenue',
  'Street Line2': '',
  City: 'New York',
  State: 'NY',
  'Postal Code': '10017',
};

const SEPA = {
  'Bank Name': 'Deutsche Bank',
  'Account Owner Name': 'Acme GmbH',
  'Account Owner Type': 'Business',
  'Bank Country/Region': 'DE',
  'Account Number': 'DE89370400440532013000',
  Bic: 'DEUTDEFF',
  firstName: '',
  lastName: '',
  businessName: 'Acme GmbH',
};

const BASES: Readonly<Record<number, Record<string, string>>> = { 58: SPEI, 83: WIRE, 85: SEPA };

type Patch = Record<string, unknown>;

function withPatch(paymentId: number, patch: Patch): Record<string, unknown> {
  const result: Record<string, unknown> = { ...BASES[paymentId] };
  for (const [label, value] of Object.entries(patch)) {
    if (value === undefined) delete result[label];
    else result[label] = value;
  }
  return result;
}

function thrown(run: () => unknown): PaymentError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentError);
    return error as PaymentError;
  }
  throw new Error('expected a PaymentError');
}

describe('BENEFICIARY_TEMPLATES and templateOf (B24)', () => {
  it('lists the labels of each rail in the spec’s order, with the required ones marked', () => {
    const shape = (paymentId: number): string[] =>
      BENEFICIARY_TEMPLATES.get(paymentId)!.map(({ label, required }) => (required ? `${label}*` : label));
    expect([...BENEFICIARY_TEMPLATES.keys()]).toEqual([58, 83, 85]);
    expect(shape(58)).toEqual(['CLABE number*', 'Account number/card', 'Beneficiary Name*']);
    expect(shape(83)).toEqual([
      'Account Owner Type*', 'Account Number*', 'Routing Number*', 'Bank Name*', 'Bank Country/Region*',
      'firstName', 'lastName', 'businessName', 'Street Line1*', 'Street Line2', 'City*', 'State*', 'Postal Code*',
    ]);
    expect(shape(85)).toEqual([
      'Bank Name*', 'Account Owner Name*', 'Account Owner Type*', 'Bank Country/Region*', 'Account Number*', 'Bic*',
      'firstName', 'lastName', 'businessName',
    ]);
  });

  it('maps every label to "" in template order', () => {
    const spei = templateOf(58);
    expect(spei).toEqual({ 'CLABE number': '', 'Account number/card': '', 'Beneficiary Name': '' });
    for (const paymentId of [58, 83, 85]) {
      expect(Object.keys(templateOf(paymentId)!)).toEqual(BENEFICIARY_TEMPLATES.get(paymentId)!.map((f) => f.label));
      expect(new Set(Object.values(templateOf(paymentId)!))).toEqual(new Set(['']));
    }
  });

  it.each([70, 0, 59, -58, 1.5])('has no template for paymentId %s', (paymentId) => {
    expect(templateOf(paymentId)).toBeUndefined();
  });

  it('hands out a fresh object each time', () => {
    templateOf(58)!['CLABE number'] = 'changed';
    expect(templateOf(58)!['CLABE number']).toBe('');
  });
});

describe('validateBeneficiaryFields: accepted input', () => {
  it.each([
    [58, SPEI, '012180001234567891'],
    [83, WIRE, '021000021:000123456789'],
    [85, SEPA, 'DE89370400440532013000'],
  ])('accepts the rail %s example and keys it by its account', (paymentId, fieldJson, accountKey) => {
    const result = validateBeneficiaryFields(paymentId, fieldJson);
    expect(result).toEqual({ fields: fieldJson, accountKey });
    expect(Object.keys(result.fields)).toEqual(Object.keys(templateOf(paymentId)!));
  });

  it('fills absent optional labels with "" in template order and trims values', () => {
    const result = validateBeneficiaryFields(58, { 'Beneficiary Name': ' Juan Perez ', 'CLABE number': '012180001234567891\n' });
    expect(result.fields).toEqual({ 'CLABE number': '012180001234567891', 'Account number/card': '', 'Beneficiary Name': 'Juan Perez' });
    expect(Object.keys(result.fields)).toEqual(['CLABE number', 'Account number/card', 'Beneficiary Name']);
    expect(result.accountKey).toBe('012180001234567891');
  });

  it('treats null and blank optional labels as absent', () => {
    const result = validateBeneficiaryFields(83, withPatch(83, { 'Street Line2': null, businessName: '  ' }));
    expect(result.fields['Street Line2']).toBe('');
    expect(result.fields.businessName).toBe('');
  });

  it.each<[string, number, Patch]>([
    ['a business wire owner', 83, { 'Account Owner Type': 'Business', businessName: 'Acme Inc', firstName: undefined, lastName: undefined }],
    ['an individual SEPA owner', 85, { 'Account Owner Type': 'Individual', firstName: 'Hans', lastName: 'Müller', businessName: undefined }],
    ['a wire account of 4 digits', 83, { 'Account Number': '1234' }],
    ['a wire account of 17 digits', 83, { 'Account Number': '12345678901234567' }],
    ['a state of digits', 83, { State: '06' }],
    ['a state of one letter', 83, { State: 'X' }],
    ['a foreign wire bank', 83, { 'Bank Country/Region': 'MX', State: 'CMX' }],
    ['an 11-character BIC', 85, { Bic: 'DEUTDEFF500' }],
    ['a lower-case BIC', 85, { Bic: 'deutdeff' }],
    ['a UK IBAN', 85, { 'Account Number': 'GB82WEST12345698765432', 'Bank Country/Region': 'GB' }],
    ['a French IBAN with a letter', 85, { 'Account Number': 'FR1420041010050500013M02606' }],
    ['an IBAN of another country than the bank', 85, { 'Account Number': 'NL91ABNA0417164300' }],
  ])('accepts %s', (_why, paymentId, patch) => {
    expect(() => validateBeneficiaryFields(paymentId, withPatch(paymentId, patch))).not.toThrow();
  });
});

describe('validateBeneficiaryFields: refusals', () => {
  it.each<[string, number, Patch, number, string]>([
    // shape and labels
    ['a label outside the template', 58, { IBAN: 'x' }, -4010, 'fieldJson.IBAN'],
    ['another rail’s label', 58, { 'Routing Number': '021000021' }, -4010, 'fieldJson.Routing Number'],
    ['a label in the wrong case', 85, { bic: 'DEUTDEFF' }, -4010, 'fieldJson.bic'],
    ['a number value', 58, { 'CLABE number': 121800012345678 }, -4010, 'fieldJson.CLABE number'],
    ['an array value', 83, { City: ['New York'] }, -4010, 'fieldJson.City'],
    ['a non-string optional value', 83, { 'Street Line2': 2 }, -4010, 'fieldJson.Street Line2'],
    // required labels
    ['a missing CLABE', 58, { 'CLABE number': undefined }, -4010, 'fieldJson.CLABE number'],
    ['a blank beneficiary name', 58, { 'Beneficiary Name': ' ' }, -4010, 'fieldJson.Beneficiary Name'],
    ['a null routing number', 83, { 'Routing Number': null }, -4010, 'fieldJson.Routing Number'],
    ['a missing bank name', 83, { 'Bank Name': undefined }, -4010, 'fieldJson.Bank Name'],
    ['a missing street', 83, { 'Street Line1': '' }, -4010, 'fieldJson.Street Line1'],
    ['a missing city', 83, { City: undefined }, -4010, 'fieldJson.City'],
    ['a missing state', 83, { State: undefined }, -4010, 'fieldJson.State'],
    ['a missing postal code', 83, { 'Postal Code': undefined }, -4010, 'fieldJson.Postal Code'],
    ['a missing wire owner type', 83, { 'Account Owner Type': undefined }, -4010, 'fieldJson.Account Owner Type'],
    ['a missing SEPA owner name', 85, { 'Account Owner Name': undefined }, -4010, 'fieldJson.Account Owner Name'],
    ['a missing BIC', 85, { Bic: '' }, -4010, 'fieldJson.Bic'],
    ['a missing IBAN', 85, { 'Account Number': undefined }, -4010, 'fieldJson.Account Number'],
    // rail 58
    ['a CLABE of 17 digits', 58, { 'CLABE number': '01218000123456789' }, -4015, 'fieldJson.CLABE number'],
    ['a CLABE of 19 digits', 58, { 'CLABE number': '0121800012345678912' }, -4015, 'fieldJson.CLABE number'],
    ['a CLABE with a letter', 58, { 'CLABE number': '01218000123456789A' }, -4015, 'fieldJson.CLABE number'],
    ['a CLABE with spaces', 58, { 'CLABE number': '012 180 00123456789' }, -4015, 'fieldJson.CLABE number'],
    ['a card of 15 digits', 58, { 'Account number/card': '415231341234567' }, -4015, 'fieldJson.Account number/card'],
    ['a card with dashes', 58, { 'Account number/card': '4152-3134-1234-5678' }, -4015, 'fieldJson.Account number/card'],
    // rail 83
    ['owner type in lower case', 83, { 'Account Owner Type': 'individual' }, -4026, 'fieldJson.Account Owner Type'],
    ['owner type Company', 83, { 'Account Owner Type': 'Company' }, -4026, 'fieldJson.Account Owner Type'],
    ['owner type of an Object.prototype key', 83, { 'Account Owner Type': 'constructor' }, -4026, 'fieldJson.Account Owner Type'],
    ['an individual without firstName', 83, { firstName: undefined }, -4010, 'fieldJson.firstName'],
    ['an individual without lastName', 83, { lastName: ' ' }, -4010, 'fieldJson.lastName'],
    ['a business without businessName', 83, { 'Account Owner Type': 'Business' }, -4010, 'fieldJson.businessName'],
    ['an account of 3 digits', 83, { 'Account Number': '123' }, -4015, 'fieldJson.Account Number'],
    ['an account of 18 digits', 83, { 'Account Number': '123456789012345678' }, -4015, 'fieldJson.Account Number'],
    ['a routing number of 8 digits', 83, { 'Routing Number': '02100002' }, -4015, 'fieldJson.Routing Number'],
    ['a routing number of 10 digits', 83, { 'Routing Number': '0210000210' }, -4015, 'fieldJson.Routing Number'],
    ['country USA', 83, { 'Bank Country/Region': 'USA' }, -4024, 'fieldJson.Bank Country/Region'],
    ['country in lower case', 83, { 'Bank Country/Region': 'us' }, -4024, 'fieldJson.Bank Country/Region'],
    ['country UK', 83, { 'Bank Country/Region': 'UK' }, -4024, 'fieldJson.Bank Country/Region'],
    ['country by name', 83, { 'Bank Country/Region': 'United States' }, -4024, 'fieldJson.Bank Country/Region'],
    ['a state of 4 characters', 83, { State: 'CDMX' }, -4025, 'fieldJson.State'],
    ['a state in lower case', 83, { State: 'ny' }, -4025, 'fieldJson.State'],
    ['a state with a dot', 83, { State: 'N.Y' }, -4025, 'fieldJson.State'],
    // rail 85
    ['SEPA owner type Personal', 85, { 'Account Owner Type': 'Personal' }, -4026, 'fieldJson.Account Owner Type'],
    ['a SEPA business without businessName', 85, { businessName: undefined }, -4010, 'fieldJson.businessName'],
    ['a SEPA individual without names', 85, { 'Account Owner Type': 'Individual' }, -4010, 'fieldJson.firstName'],
    ['SEPA country XK', 85, { 'Bank Country/Region': 'XK' }, -4024, 'fieldJson.Bank Country/Region'],
    ['an IBAN with broken check digits', 85, { 'Account Number': 'DE88370400440532013000' }, -4010, 'fieldJson.Account Number'],
    ['a UK IBAN with broken check digits', 85, { 'Account Number': 'GB83WEST12345698765432' }, -4010, 'fieldJson.Account Number'],
    ['an IBAN with spaces', 85, { 'Account Number': 'DE89 3704 0044 0532 0130 00' }, -4010, 'fieldJson.Account Number'],
    ['an IBAN in lower case', 85, { 'Account Number': 'de89370400440532013000' }, -4010, 'fieldJson.Account Number'],
    ['a bare account number', 85, { 'Account Number': '0532013000' }, -4010, 'fieldJson.Account Number'],
    ['a BIC of 9', 85, { Bic: 'DEUTDEFF5' }, -4023, 'fieldJson.Bic'],
    ['a BIC of 7', 85, { Bic: 'DEUTDEF' }, -4023, 'fieldJson.Bic'],
    ['a BIC with a hyphen', 85, { Bic: 'DEUT-DEFF' }, -4023, 'fieldJson.Bic'],
  ])('refuses %s', (_why, paymentId, patch, code, detail) => {
    const error = thrown(() => validateBeneficiaryFields(paymentId, withPatch(paymentId, patch)));
    expect(error.code).toBe(code);
    expect(error.detail).toContain(detail);
  });

  it.each([70, 0, 59, 1001])('refuses paymentId %s with -5017', (paymentId) => {
    expect(thrown(() => validateBeneficiaryFields(paymentId, SPEI)).code).toBe(-5017);
  });
});

describe('validateBeneficiaryFields: first failure wins', () => {
  it.each<[string, number, Patch, number, string]>([
    ['an unknown label before a missing required one', 58, { Extra: 'x', 'CLABE number': undefined }, -4010, 'fieldJson.Extra'],
    ['a missing required label before a bad value', 83, { 'Routing Number': '1', 'Postal Code': undefined }, -4010, 'fieldJson.Postal Code'],
    ['owner type before the account number', 83, { 'Account Owner Type': 'Trust', 'Account Number': '1' }, -4026, 'fieldJson.Account Owner Type'],
    ['owner names before the account number', 83, { firstName: '', 'Account Number': '1' }, -4010, 'fieldJson.firstName'],
    ['account number before routing number', 83, { 'Account Number': '1', 'Routing Number': '1' }, -4015, 'fieldJson.Account Number'],
    ['routing number before country', 83, { 'Routing Number': '1', 'Bank Country/Region': 'ZZ' }, -4015, 'fieldJson.Routing Number'],
    ['country before state', 83, { 'Bank Country/Region': 'ZZ', State: 'toolong' }, -4024, 'fieldJson.Bank Country/Region'],
    ['country before IBAN', 85, { 'Bank Country/Region': 'ZZ', 'Account Number': 'x' }, -4024, 'fieldJson.Bank Country/Region'],
    ['IBAN before BIC', 85, { 'Account Number': 'x', Bic: 'x' }, -4010, 'fieldJson.Account Number'],
    ['CLABE before card', 58, { 'CLABE number': '1', 'Account number/card': '1' }, -4015, 'fieldJson.CLABE number'],
  ])('%s', (_why, paymentId, patch, code, detail) => {
    const error = thrown(() => validateBeneficiaryFields(paymentId, withPatch(paymentId, patch)));
    expect(error.code).toBe(code);
    expect(error.detail).toContain(detail);
  });
});
