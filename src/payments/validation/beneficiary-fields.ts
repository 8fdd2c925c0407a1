/**
 * Beneficiary templates (B24) and the B25 `fieldJson` rules per rail (docs/merchant-payments.md "Endpoints served").
 * Checks run as: member shape and labels, then required labels, then each label's rule in template
 * order; the first failure wins.
 */
import { invalidParam, refuse } from '../../core/payment-errors.js';
import { isIsoCountry } from './countries.js';
import { isValidIban } from './formats.js';

export interface TemplateField {
  readonly label: string;
  readonly required: boolean;
}

const required = (label: string): TemplateField => ({ label, required: true });
const optional = (label: string): TemplateField => ({ label, required: false });

/** Labels in the spec's order; B24 and every stored `fieldList` show them in this order. */
export const BENEFICIARY_TEMPLATES: ReadonlyMap<number, readonly TemplateField[]> = new Map([
  [58, [required('CLABE number'), optional('Account number/card'), required('Beneficiary Name')]],
  [
    83,
    [
      required('Account Owner Type'),
      required('Account Number'),
      required('Routing Number'),
      required('Bank Name'),
      required('Bank Country/Region'),
      optional('firstName'),
      optional('lastName'),
      optional('businessName'),
      required('Street Line1'),
      optional('Street Line2'),
      required('City'),
      required('State'),
      required('Postal Code'),
    ],
  ],
  [
    85,
    [
      required('Bank Name'),
      required('Account Owner Name'),
      required('Account Owner Type'),
      required('Bank Country/Region'),
      required('Account Number'),
      required('Bic'),
      optional('firstName'),
      optional('lastName'),
      optional('businessName'),
    ],
  ],
]);

/** B24: the rail's labels, each mapped to `""`; `undefined` for a rail without a template. */
export function templateOf(paymentId: number): Record<string, string> | undefined {
  const template = BENEFICIARY_TEMPLATES.get(paymentId);
  if (template === undefined) return undefined;
  return Object.fromEntries(template.map(({ label }) => [label, '']));
}

type Fields = Readonly<Record<string, string>>;

interface LabelRule {
  readonly label: string;
  readonly check: (value: string, fields: Fields) => void;
}

function param(label: string): string {
  return `fieldJson.${label}`;
}

function digitsRule(label: string, min: number, max: number): LabelRule {
  const pattern = new RegExp(`^[0-9]{${min},${max}}$`);
  const size = min === max ? `${min}` : `${min}-${max}`;
  return {
    label,
    check: (value) => {
      if (!pattern.test(value)) refuse('PARAM_MUST_LENGTH_NUMERIC', `${param(label)} must be ${size} digits`);
    },
  };
}

/** Optional labels are `""` when absent; their rules apply only to a value actually given. */
function ifGiven(rule: LabelRule): LabelRule {
  return {
    label: rule.label,
    check: (value, fields) => {
      if (value !== '') rule.check(value, fields);
    },
  };
}

/** The name labels each owner type needs: optional in the template, required by the owner type. */
const OWNER_NAME_LABELS: Readonly<Record<string, readonly string[]>> = {
  Business: ['businessName'],
  Individual: ['firstName', 'lastName'],
};

const ownerTypeRule: LabelRule = {
  label: 'Account Owner Type',
  check: (value, fields) => {
    const names = Object.hasOwn(OWNER_NAME_LABELS, value) ? OWNER_NAME_LABELS[value] : undefined;
    if (names === undefined) {
      refuse('PARAM_IS_INVALID_ACCOUNT_TYPE', `${param('Account Owner Type')} must be Business or Individual`);
    }
    for (const name of names) {
      if (fields[name] === '') invalidParam(param(name), `is required when Account Owner Type is ${value}`);
    }
  },
};

const countryRule: LabelRule = {
  label: 'Bank Country/Region',
  check: (value) => {
    if (!isIsoCountry(value)) {
      refuse('PARAM_IS_INVALID_ISO1', `${param('Bank Country/Region')} must be an ISO 3166-1 alpha-2 code`);
    }
  },
};

/** Format only: states and provinces are not validated against any country's list. */
const stateRule: LabelRule = {
  label: 'State',
  check: (value) => {
    if (!/^[A-Z0-9]{1,3}$/.test(value)) {
      refuse('PARAM_IS_INVALID_ISO2', `${param('State')} must be 1-3 uppercase letters/digits`);
    }
  },
};

const ibanRule: LabelRule = {
  label: 'Account Number',
  check: (value) => {
    if (!isValidIban(value)) invalidParam(param('Account Number'), 'must be a valid IBAN (uppercase, no spaces)');
  },
};

const bicRule: LabelRule = {
  label: 'Bic',
  check: (value) => {
    if (!/^[A-Za-z0-9]{8}(?:[A-Za-z0-9]{3})?$/.test(value)) {
      refuse('PARAM_NOT_IS_ALPHANUMERIC', `${param('Bic')} must be 8 or 11 letters/digits`);
    }
  },
};

/** Per rail, in template order. No check digit on CLABE or card, so test data stays easy (docs/merchant-payments.md "Endpoints served"). */
const RAIL_RULES: ReadonlyMap<number, readonly LabelRule[]> = new Map([
  [58, [digitsRule('CLABE number', 18, 18), ifGiven(digitsRule('Account number/card', 16, 16))]],
  [
    83,
    [ownerTypeRule, digitsRule('Account Number', 4, 17), digitsRule('Routing Number', 9, 9), countryRule, stateRule],
  ],
  [85, [ownerTypeRule, countryRule, ibanRule, bicRule]],
]);

/** What makes two beneficiaries the same payout account, for -5053 and -5014. */
const ACCOUNT_KEYS: ReadonlyMap<number, (fields: Fields) => string> = new Map([
  [58, (fields: Fields) => fields['CLABE number']],
  [83, (fields: Fields) => `${fields['Routing Number']}:${fields['Account Number']}`],
  [85, (fields: Fields) => fields['Account Number']],
]);

/** docs/merchant-payments.md "Requests": `null` is absent like `""`; labels outside the template are refused, not ignored. */
function assertKnownStringLabels(
  paymentId: number,
  template: readonly TemplateField[],
  fieldJson: Record<string, unknown>,
): void {
  const labels = new Set(template.map(({ label }) => label));
  for (const [label, value] of Object.entries(fieldJson)) {
    if (!labels.has(label)) invalidParam(param(label), `is not a field of paymentId ${paymentId}`);
    if (value !== null && typeof value !== 'string') invalidParam(param(label), 'must be a string');
  }
}

/** Every template label, trimmed, in template order; absent ones as `""`. */
function normalise(template: readonly TemplateField[], fieldJson: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const { label } of template) {
    const value = Object.hasOwn(fieldJson, label) ? fieldJson[label] : undefined;
    fields[label] = typeof value === 'string' ? value.trim() : '';
  }
  return fields;
}

function assertRequiredPresent(template: readonly TemplateField[], fields: Fields): void {
  for (const { label, required: isRequired } of template) {
    if (isRequired && fields[label] === '') invalidParam(param(label), 'is required');
  }
}

/**
 * B25: validates `fieldJson` for rail `paymentId` (58, 83 or 85; another rail → -5017). Returns
 * every template label trimmed in template order, and the key identifying the payout account
 * (58 the CLABE, 83 `routing:account`, 85 the IBAN). Throws the first failing rule's PaymentError.
 */
export function validateBeneficiaryFields(
  paymentId: number,
  fieldJson: Record<string, unknown>,
): { fields: Record<string, string>; accountKey: string } {
  const template = BENEFICIARY_TEMPLATES.get(paymentId);
  const rules = RAIL_RULES.get(paymentId);
  const accountKeyOf = ACCOUNT_KEYS.get(paymentId);
  if (template === undefined || rules === undefined || accountKeyOf === undefined) {
    refuse('PAYMENT_INVALID', `paymentId ${paymentId} takes no beneficiary`);
  }
  assertKnownStringLabels(paymentId, template, fieldJson);
  const fields = normalise(template, fieldJson);
  assertRequiredPresent(template, fields);
  for (const rule of rules) rule.check(fields[rule.label], fields);
  return { fields, accountKey: accountKeyOf(fields) };
}
