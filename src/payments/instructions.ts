/**
 * Deposit instructions of a merchant account (B17): invented, stable per (merchant, fiat), and
 * shaped like the real thing (a CLABE of 18 digits starting 706180, an IBAN with valid check digits)
 * so that integrations can validate them, while no real account can ever match one.
 */
import type { RailSpec } from './config.js';

const CLABE_PREFIX = '706180';
const WIRE_ROUTING = '026073150';
/** A German-format IBAN under an invented bank code. */
const SEPA_BANK_CODE = '70618000';

function padded(id: number, width: number): string {
  return String(id).padStart(width, '0');
}

export function merchantClabe(merchantId: number): string {
  return `${CLABE_PREFIX}${padded(merchantId, 12)}`;
}

function wireAccount(merchantId: number): string {
  return `8706${padded(merchantId, 8)}`;
}

/** `DE` IBAN whose mod-97 check digits are computed, so that the instruction is a valid IBAN. */
export function merchantIban(merchantId: number): string {
  const bban = `${SEPA_BANK_CODE}${padded(merchantId, 10)}`;
  // Letters as numbers (D = 13, E = 14), country code and "00" moved to the end, then 98 − mod 97.
  const numeric = BigInt(`${bban}131400`);
  const check = 98n - (numeric % 97n);
  return `DE${padded(Number(check), 2)}${bban}`;
}

/** The account a beneficiary may not point at (-5014), in the key form of beneficiary-fields.ts. */
export function ownAccountKey(merchantId: number, paymentId: number): string {
  switch (paymentId) {
    case 58:
      return merchantClabe(merchantId);
    case 83:
      return `${WIRE_ROUTING}:${wireAccount(merchantId)}`;
    case 85:
      return merchantIban(merchantId);
    default:
      return '';
  }
}

/** Each label's value for a merchant: computed only for the labels a rail shows (the IBAN's check digits take a bigint division). */
const INSTRUCTION_VALUES: Readonly<Record<string, (merchantId: number, merchantName: string) => string>> = {
  'Cuenta CLABE': (merchantId) => merchantClabe(merchantId),
  'Beneficiary Name': (_merchantId, merchantName) => merchantName,
  'Deposit Message': (merchantId) => `BOURSE-${padded(merchantId, 8)}`,
  'Bank Account Number': (merchantId) => wireAccount(merchantId),
  'Bank Routing Number': () => WIRE_ROUTING,
  'Bank Beneficiary Name': (_merchantId, merchantName) => merchantName,
  'Bank Name': () => 'Bourse Sandbox Bank',
  'Bank Address': () => '1 Sandbox Plaza, New York, NY 10004',
  IBAN: (merchantId) => merchantIban(merchantId),
  BIC: () => 'BRSEDEFFXXX',
  Reference: (merchantId) => `BOURSE-${padded(merchantId, 8)}`,
};

/** B17 `fieldList`: the rail's labels with this merchant's values (a fresh object the caller may add to). */
export function depositInstructions(merchantId: number, merchantName: string, rail: RailSpec): Record<string, string> {
  // fromEntries defines each label as an own member, whatever the operator named it (`__proto__` too).
  return Object.fromEntries(rail.instructionLabels.map((label) => [label, Object.hasOwn(INSTRUCTION_VALUES, label) ? INSTRUCTION_VALUES[label](merchantId, merchantName) : '']));
}
