/**
 * B15 fields (KYC) of merchants that pass every rule: plain data, without vitest, so that bench/
 * can use them too. test/support/merchant-client.ts re-exports them.
 */

/** B15 fields of a BUSINESS merchant that pass every rule. */
export const BUSINESS_FIELDS = {
  idNoType: 'RFC',
  idNo: 'ACM010101AB1',
  cardIssueDate: '2020-01-15',
  cardExpireDate: '2030-01-15',
  address: 'Av. Reforma 1',
  city: 'Ciudad de México',
  state: 'CDMX',
  zipCode: '06600',
  phone: '+525512345678',
  companyName: 'Acme MX SA de CV',
  aliasName: 'Acme',
  companyType: 'SA de CV',
  incorporationDate: '2010-05-01',
};

/** B15 fields of an INDIVIDUAL merchant that pass every rule. */
export const INDIVIDUAL_FIELDS = {
  idNoType: 'CURP',
  idNo: 'PEPJ800101HDFRRN09',
  cardIssueDate: '2020-01-15',
  cardExpireDate: '2030-01-15',
  address: 'Calle 5 de Mayo 10',
  city: 'Puebla',
  state: 'PUE',
  zipCode: '72000',
  phone: '2221234567',
  birthday: '1980-01-01',
  name: 'Juan',
  fatherSurname: 'Perez',
  motherSurname: '',
};
