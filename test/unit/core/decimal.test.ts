import { describe, it, expect } from 'vitest';
import {
  ATTO_ONE,
  ATTO_SCALE,
  attoToUnits,
  divCeil,
  divRoundHalfAway,
  formatAtto,
  formatUnits,
  fractionDigits,
  isSafeCount,
  parseDecimal,
  parseSignedDecimal,
  pow10,
  unitsToAtto,
} from '../../../src/core/decimal.js';

const TWENTY_NINES = '9'.repeat(20);
const EIGHTEEN_NINES = '9'.repeat(18);

describe('constants', () => {
  it('when read, then the atto scale is 18 and one atto-unit value is 10^18', () => {
    expect(ATTO_SCALE).toBe(18);
    expect(ATTO_ONE).toBe(1_000_000_000_000_000_000n);
  });
});

describe('pow10', () => {
  it('when n is 0, 1, 18 or 39, then it returns 10^n', () => {
    expect(pow10(0)).toBe(1n);
    expect(pow10(1)).toBe(10n);
    expect(pow10(18)).toBe(1_000_000_000_000_000_000n);
    expect(pow10(39)).toBe(BigInt(`1${'0'.repeat(39)}`));
  });

  it.each([-1, 40, 1.5, Number.NaN])('when n is %s, then it throws a RangeError', (n) => {
    expect(() => pow10(n)).toThrow(RangeError);
    expect(() => pow10(n)).toThrow(`pow10 out of range: ${n}`);
  });
});

describe('parseDecimal', () => {
  it.each([
    ['0', 0n],
    ['0.1', 100_000_000_000_000_000n],
    ['00012.50', 12_500_000_000_000_000_000n],
    ['1', ATTO_ONE],
    ['0.000000000000000001', 1n],
    ['0.10', 100_000_000_000_000_000n],
    [TWENTY_NINES, BigInt(TWENTY_NINES) * ATTO_ONE],
    [`0.${EIGHTEEN_NINES}`, BigInt(EIGHTEEN_NINES)],
    [`${TWENTY_NINES}.${EIGHTEEN_NINES}`, BigInt(TWENTY_NINES + EIGHTEEN_NINES)],
    ['00000000000000000000', 0n],
  ])('when given %j, then it returns %s atto', (text, atto) => {
    expect(parseDecimal(text)).toBe(atto);
  });

  it('when "0.10" and "0.1" are parsed, then they are equal values', () => {
    expect(parseDecimal('0.10')).toBe(parseDecimal('0.1'));
  });

  it.each([
    '',
    '.5',
    '5.',
    '.',
    '+1',
    '-1',
    '-0',
    '1e5',
    '1E5',
    'NaN',
    'Infinity',
    ' 1',
    '1 ',
    '1\n',
    '\t1',
    '1,000',
    '1_000',
    '1.2.3',
    '9'.repeat(21),
    `0.${'1'.repeat(19)}`,
    '0x10',
    '0b1',
    '١٢٣',
    '１２',
    '1.٥',
  ])('when given %j, then it returns null', (text) => {
    expect(parseDecimal(text)).toBeNull();
  });
});

describe('parseSignedDecimal', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['12.5', 12_500_000_000_000_000_000n],
    ['-12.5', -12_500_000_000_000_000_000n],
    ['-0.000000000000000001', -1n],
    [`-${TWENTY_NINES}.${EIGHTEEN_NINES}`, -BigInt(TWENTY_NINES + EIGHTEEN_NINES)],
  ])('when given %j, then it returns %s atto', (text, atto) => {
    expect(parseSignedDecimal(text)).toBe(atto);
  });

  it.each(['', '-', '+1', '--1', '- 1', '1-', '-.5', '-5.', '-1e5', `-${'9'.repeat(21)}`, `-0.${'1'.repeat(19)}`])(
    'when given %j, then it returns null',
    (text) => {
      expect(parseSignedDecimal(text)).toBeNull();
    },
  );
});

describe('fractionDigits', () => {
  it.each([
    [0n, undefined, 0],
    [1n, undefined, 18],
    [ATTO_ONE, undefined, 0],
    [100_000_000_000_000_000n, undefined, 1],
    [-100_000_000_000_000_000n, undefined, 1],
    [12_340_000_000_000_000_000n, undefined, 2],
    [1250n, 3, 2],
    [1250n, 1, 0],
    [7n, 0, 0],
    [-15n, 2, 2],
  ])('when value is %s at scale %s, then it needs %i digits', (value, scale, digits) => {
    expect(fractionDigits(value, scale)).toBe(digits);
  });
});

describe('attoToUnits', () => {
  it('when "0.10" is converted to scale 1, then trailing zeros are accepted and it is 1 unit', () => {
    expect(attoToUnits(parseDecimal('0.10')!, 1)).toBe(1n);
  });

  it('when "0.15" is converted to scale 1, then it returns null for too many decimals', () => {
    expect(attoToUnits(parseDecimal('0.15')!, 1)).toBeNull();
  });

  it('when one atto is converted to scale 17, then it returns null', () => {
    expect(attoToUnits(1n, 17)).toBeNull();
  });

  it.each([
    [0n, 0, 0n],
    [ATTO_ONE, 0, 1n],
    [12_345_000_000_000_000_000n, 8, 1_234_500_000n],
    [-12_345_000_000_000_000_000n, 3, -12_345n],
    [1n, 18, 1n],
  ])('when %s atto is converted to scale %i, then it returns %s units', (atto, scale, units) => {
    expect(attoToUnits(atto, scale)).toBe(units);
  });

  it('when the value is negative with too many decimals, then it returns null', () => {
    expect(attoToUnits(-15n * 10n ** 16n, 1)).toBeNull();
  });

  it('when the scale is above 18, then it throws a RangeError', () => {
    expect(() => attoToUnits(ATTO_ONE, 19)).toThrow(RangeError);
  });
});

describe('unitsToAtto', () => {
  it.each([
    [0n, 8, 0n],
    [1n, 0, ATTO_ONE],
    [1_234_500_000n, 8, 12_345_000_000_000_000_000n],
    [-5n, 1, -500_000_000_000_000_000n],
    [1n, 18, 1n],
  ])('when %s units at scale %i are converted, then they are %s atto', (units, scale, atto) => {
    expect(unitsToAtto(units, scale)).toBe(atto);
  });

  it('when the scale is above 18, then it throws a RangeError', () => {
    expect(() => unitsToAtto(1n, 19)).toThrow(RangeError);
  });
});

describe('formatUnits', () => {
  it.each([
    [0n, 0, '0'],
    [0n, 8, '0'],
    [5n, 0, '5'],
    [-5n, 0, '-5'],
    [1n, 2, '0.01'],
    [-1n, 2, '-0.01'],
    [100n, 2, '1'],
    [-100n, 2, '-1'],
    [1250n, 2, '12.5'],
    [-1250n, 2, '-12.5'],
    [3_000_000_000_000n, 8, '30000'],
    [1_000_000_000_000_000n, 8, '10000000'],
    [10n, 1, '1'],
    [101n, 2, '1.01'],
    [1n, 18, '0.000000000000000001'],
    [BigInt(TWENTY_NINES + EIGHTEEN_NINES), 18, `${TWENTY_NINES}.${EIGHTEEN_NINES}`],
    [12_345n, 39, `0.${'0'.repeat(34)}12345`],
  ])('when %s units at scale %i are formatted, then the text is %j', (units, scale, text) => {
    expect(formatUnits(units, scale)).toBe(text);
  });

  it('when the scale is above 39, then it throws a RangeError', () => {
    expect(() => formatUnits(1n, 40)).toThrow(RangeError);
  });
});

describe('formatAtto', () => {
  it.each([
    [0n, '0'],
    [ATTO_ONE, '1'],
    [100_000_000_000_000_000n, '0.1'],
    [-12_500_000_000_000_000_000n, '-12.5'],
    [1n, '0.000000000000000001'],
  ])('when %s atto is formatted, then the text is %j', (atto, text) => {
    expect(formatAtto(atto)).toBe(text);
  });

  it('when "00012.50" is parsed and formatted, then the canonical text is "12.5"', () => {
    expect(formatAtto(parseDecimal('00012.50')!)).toBe('12.5');
  });
});

describe('divCeil', () => {
  it.each([
    [0n, 3n, 0n],
    [6n, 3n, 2n],
    [7n, 3n, 3n],
    [8n, 3n, 3n],
    [1n, 1_000_000n, 1n],
    [-7n, 3n, -2n],
    [-6n, 3n, -2n],
    [10n ** 30n + 1n, 10n ** 12n, 10n ** 18n + 1n],
  ])('when %s is divided by %s, then the result rounds up to %s', (numerator, denominator, quotient) => {
    expect(divCeil(numerator, denominator)).toBe(quotient);
  });

  it('when the denominator is zero, then it throws a RangeError', () => {
    expect(() => divCeil(1n, 0n)).toThrow(RangeError);
  });
});

describe('divRoundHalfAway', () => {
  it.each([
    [0n, 7n, 0n],
    [7n, 2n, 4n],
    [5n, 2n, 3n],
    [-5n, 2n, -3n],
    [5n, -2n, -3n],
    [-5n, -2n, 3n],
    [7n, 3n, 2n],
    [8n, 3n, 3n],
    [-7n, 3n, -2n],
    [-8n, 3n, -3n],
    [7n, -3n, -2n],
    [-8n, -3n, 3n],
    [1n, 2n, 1n],
    [-1n, 2n, -1n],
    [1n, 3n, 0n],
    [-1n, 3n, 0n],
    [149n, 100n, 1n],
    [150n, 100n, 2n],
    [-150n, 100n, -2n],
  ])('when %s is divided by %s, then the result rounds half away from zero to %s', (numerator, denominator, quotient) => {
    expect(divRoundHalfAway(numerator, denominator)).toBe(quotient);
  });

  it('when the denominator is zero, then it throws a RangeError', () => {
    expect(() => divRoundHalfAway(1n, 0n)).toThrow(RangeError);
  });
});

describe('isSafeCount', () => {
  it.each([
    [0, true],
    [1, true],
    [Number.MAX_SAFE_INTEGER, true],
    [Number.MAX_SAFE_INTEGER + 1, false],
    [-1, false],
    [1.5, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])('when given %s, then it returns %s', (value, safe) => {
    expect(isSafeCount(value)).toBe(safe);
  });
});
