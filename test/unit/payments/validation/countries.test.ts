import { describe, expect, it } from 'vitest';
import { COUNTRY_NAMES, isIsoCountry } from '../../../../src/payments/validation/countries.js';

describe('COUNTRY_NAMES', () => {
  it('holds the 249 assigned ISO 3166-1 alpha-2 codes, each an uppercase pair with a name', () => {
    expect(COUNTRY_NAMES.size).toBe(249);
    for (const [code, name] of COUNTRY_NAMES) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(name.trim()).toBe(name);
      expect(name.length).toBeGreaterThan(2);
    }
  });

  it('gives every code its own name', () => {
    expect(new Set(COUNTRY_NAMES.values()).size).toBe(COUNTRY_NAMES.size);
  });

  it('is sorted by code, so the data stays easy to audit', () => {
    const codes = [...COUNTRY_NAMES.keys()];
    expect(codes).toEqual([...codes].sort());
  });

  it.each([
    ['MX', 'Mexico'],
    ['US', 'United States'],
    ['GB', 'United Kingdom'],
    ['KR', 'South Korea'],
    ['KP', 'North Korea'],
    ['DE', 'Germany'],
    ['ES', 'Spain'],
    ['BR', 'Brazil'],
    ['CI', 'Côte d’Ivoire'],
    ['AX', 'Åland Islands'],
    ['CD', 'Congo - Kinshasa'],
    ['HK', 'Hong Kong SAR China'],
  ])('names %s "%s" (CLDR English)', (code, name) => {
    expect(COUNTRY_NAMES.get(code)).toBe(name);
  });
});

describe('isIsoCountry', () => {
  it.each(['MX', 'US', 'GB', 'AQ', 'BQ', 'SS', 'SX', 'CW', 'UM', 'ZW', 'AD'])('accepts %s', (code) => {
    expect(isIsoCountry(code)).toBe(true);
  });

  it.each([
    ['user-assigned Kosovo', 'XK'],
    ['exceptionally reserved UK', 'UK'],
    ['exceptionally reserved EU', 'EU'],
    ['transitionally reserved', 'AN'],
    ['unassigned', 'ZZ'],
    ['lower case', 'mx'],
    ['mixed case', 'Mx'],
    ['alpha-3', 'MEX'],
    ['empty', ''],
    ['padded', ' MX'],
    ['numeric', '48'],
  ])('refuses %s (%j)', (_why, code) => {
    expect(isIsoCountry(code)).toBe(false);
  });
});
