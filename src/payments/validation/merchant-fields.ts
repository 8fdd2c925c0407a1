/**
 * B15 `fieldList` (docs/merchant-payments.md "Endpoints served"): the KYC/KYB members of a merchant account application.
 * The rules run in the order of the spec's table and the first failure wins, so a client fixing
 * errors one at a time always sees them in the same order.
 */
import { invalidParam, refuse } from '../../core/payment-errors.js';
import { ageInYears, isEmail, parseIsoDate, startOfUtcDay, type IsoDate } from './formats.js';

export type MerchantType = 'INDIVIDUAL' | 'BUSINESS';

interface Context {
  readonly merchantType: MerchantType;
  readonly hasEmailOnFile: boolean;
  readonly todayMs: number;
  /** Members accepted so far; later rules (idNo, cardExpireDate) depend on earlier ones. */
  readonly accepted: Readonly<Record<string, string>>;
}

interface MemberRule {
  readonly member: string;
  /** Set for the members of one merchant type only; unset means both types. */
  readonly only?: MerchantType;
  readonly required: (ctx: Context) => boolean;
  /** `""` is a value rather than absence (the docs/merchant-payments.md relaxation for `motherSurname`). */
  readonly emptyIsValue?: boolean;
  readonly check: (value: string, ctx: Context) => void;
}

/** The e-mail length B13 allows; an address on file and one sent here obey the same limit. */
const MAX_EMAIL = 128;
const MIN_AGE = 18;
const MAX_AGE = 120;

const always = (): boolean => true;

function param(member: string): string {
  return `fieldList.${member}`;
}

/** Counted in characters (code points), as a client counts them, not in UTF-16 units. */
function checkLength(member: string, value: string, limit: number): void {
  if ([...value].length > limit) {
    refuse('PARAM_EXCEEDS_LIMIT_LENGTH', `${param(member)} exceeds ${limit} characters`);
  }
}

function lengthRule(member: string, limit: number, only?: MerchantType): MemberRule {
  return { member, only, required: always, check: (value) => checkLength(member, value, limit) };
}

function dateOf(member: string, value: string): IsoDate {
  return parseIsoDate(value) ?? invalidParam(param(member), 'must be a real date in yyyy-MM-dd form');
}

/** Compared by UTC date, not instant: a date has no time of day, so one dated today passes all day. */
function checkNotFuture(member: string, value: string, todayMs: number): void {
  if (dateOf(member, value).ms > startOfUtcDay(todayMs)) invalidParam(param(member), 'must not be in the future');
}

function checkEmail(value: string): void {
  checkLength('email', value, MAX_EMAIL);
  if (!isEmail(value)) invalidParam(param('email'), 'is not a valid e-mail address');
}

function checkIdNoType(value: string): void {
  if (value !== 'CURP' && value !== 'RFC') invalidParam(param('idNoType'), 'must be CURP or RFC');
}

/** A company's RFC opens with three letters, a person's with four, hence 12 and 13 characters. */
function idNoLength(ctx: Context): number {
  if (ctx.accepted.idNoType === 'CURP') return 18;
  return ctx.merchantType === 'BUSINESS' ? 12 : 13;
}

function checkIdNo(value: string, ctx: Context): void {
  const length = idNoLength(ctx);
  if (value.length !== length || !/^[A-Za-z0-9]+$/.test(value)) {
    refuse('PARAM_MUST_LENGTH_CHAR', `${param('idNo')} must be ${length} letters/digits for ${ctx.accepted.idNoType}`);
  }
}

function checkCardIssueDate(value: string, ctx: Context): void {
  checkNotFuture('cardIssueDate', value, ctx.todayMs);
}

function checkCardExpireDate(value: string, ctx: Context): void {
  const expiry = dateOf('cardExpireDate', value);
  const issue = dateOf('cardIssueDate', ctx.accepted.cardIssueDate);
  if (expiry.ms <= issue.ms) invalidParam(param('cardExpireDate'), 'must be after cardIssueDate');
}

function checkZipCode(value: string): void {
  if (!/^[A-Za-z0-9]{3,10}$/.test(value)) {
    refuse('PARAM_NOT_IS_ALPHANUMERIC', `${param('zipCode')} must be 3-10 letters/digits`);
  }
}

function checkPhone(value: string): void {
  if (!/^\+?[0-9]{7,15}$/.test(value)) {
    refuse('PARAM_NOT_IS_NUMERIC', `${param('phone')} must be 7-15 digits, optionally after '+'`);
  }
}

function checkIncorporationDate(value: string, ctx: Context): void {
  checkNotFuture('incorporationDate', value, ctx.todayMs);
}

function checkBirthday(value: string, ctx: Context): void {
  const age = ageInYears(dateOf('birthday', value), ctx.todayMs);
  if (age < MIN_AGE || age > MAX_AGE) {
    invalidParam(param('birthday'), `must give an age of ${MIN_AGE}-${MAX_AGE} years`);
  }
}

/** The spec's table, top to bottom. */
const RULES: readonly MemberRule[] = [
  { member: 'email', required: (ctx) => !ctx.hasEmailOnFile, check: checkEmail },
  { member: 'idNoType', required: always, check: checkIdNoType },
  { member: 'idNo', required: always, check: checkIdNo },
  { member: 'cardIssueDate', required: always, check: checkCardIssueDate },
  { member: 'cardExpireDate', required: always, check: checkCardExpireDate },
  lengthRule('address', 200),
  lengthRule('city', 64),
  lengthRule('state', 64),
  { member: 'zipCode', required: always, check: checkZipCode },
  { member: 'phone', required: always, check: checkPhone },
  lengthRule('companyName', 128, 'BUSINESS'),
  lengthRule('aliasName', 64, 'BUSINESS'),
  lengthRule('companyType', 32, 'BUSINESS'),
  { member: 'incorporationDate', only: 'BUSINESS', required: always, check: checkIncorporationDate },
  { member: 'birthday', only: 'INDIVIDUAL', required: always, check: checkBirthday },
  lengthRule('name', 64, 'INDIVIDUAL'),
  lengthRule('fatherSurname', 64, 'INDIVIDUAL'),
  { ...lengthRule('motherSurname', 64, 'INDIVIDUAL'), emptyIsValue: true },
];

/** docs/merchant-payments.md "Requests": `null` means absent like `""`; any other non-string is malformed, whatever the member. */
function assertStringMembers(fieldList: Record<string, unknown>): void {
  for (const [member, value] of Object.entries(fieldList)) {
    if (value !== null && typeof value !== 'string') invalidParam(param(member), 'must be a string');
  }
}

/** The trimmed value, or `undefined` when the member counts as absent. */
function presentValue(fieldList: Record<string, unknown>, rule: MemberRule): string | undefined {
  if (!Object.hasOwn(fieldList, rule.member)) return undefined;
  const raw = fieldList[rule.member];
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim();
  return value === '' && !rule.emptyIsValue ? undefined : value;
}

/**
 * Validates B15 `fieldList` for a merchant of `merchantType` and returns the members the table
 * lists for that type, trimmed, in table order (absent optional members left out). Members of the
 * other type and unknown members are dropped. Throws the first failing rule's PaymentError.
 */
export function validateMerchantFieldList(
  fieldList: Record<string, unknown>,
  merchantType: MerchantType,
  hasEmailOnFile: boolean,
  todayMs: number,
): Record<string, string> {
  assertStringMembers(fieldList);
  const accepted: Record<string, string> = {};
  const ctx: Context = { merchantType, hasEmailOnFile, todayMs, accepted };
  for (const rule of RULES) {
    if (rule.only !== undefined && rule.only !== merchantType) continue;
    const value = presentValue(fieldList, rule);
    if (value === undefined) {
      if (rule.required(ctx)) invalidParam(param(rule.member), 'is required');
      continue;
    }
    rule.check(value, ctx);
    accepted[rule.member] = value;
  }
  return accepted;
}
