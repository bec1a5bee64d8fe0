import { describe, expect, it } from 'vitest';
import type { LandingColumn } from '../../../../../src/api/landings/contract';
import { deriveFields, normalizePhone, own, phoneSearchText, setValue } from '../../../../../server/services/leads/normalize';

const column = (key: string, type: LandingColumn['type']): LandingColumn => ({ key, label: key, type, required: false });

describe('form records', () => {
  it('keep a __proto__ key as a value of their own, and serialize it', () => {
    const data: Record<string, unknown> = {};
    setValue(data, '__proto__', 'x');
    setValue(data, 'nom', 'Durand');
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(own(data, '__proto__')).toBe('x');
    expect(JSON.stringify(data)).toBe('{"__proto__":"x","nom":"Durand"}');
  });

  it('derive the first phone, email and postal code, never an inherited property', () => {
    const columns = [
      column('constructor', 'phone'),
      column('telephone', 'phone'),
      column('toString', 'email'),
      column('email', 'email'),
      column('code_postal', 'postal_code'),
    ];
    expect(deriveFields(columns, { telephone: '0612345678', email: 'a@b.fr', code_postal: '30000' })).toEqual({
      departement: '30',
      zone_climatique: 'H3',
      phone: '0612345678',
      email: 'a@b.fr',
    });
    expect(deriveFields(columns, { constructor: '0700000000', telephone: '0612345678' })).toMatchObject({ phone: '0700000000', email: null, departement: '' });
  });
});

describe('phone numbers', () => {
  it('are stored as French numbers of ten digits, from the ways people write them', () => {
    for (const raw of ['06 12 34 56 78', '06.12.34.56.78', '+33 6 12 34 56 78', '0033612345678', '612345678', '(06) 12-34-56/78']) {
      expect(normalizePhone(raw)).toBe('0612345678');
    }
    expect(normalizePhone('+262 692 12 34 56')).toBe('0692123456');
    expect(normalizePhone('+44 20 7946 0958')).toBeUndefined();
    expect(normalizePhone('06 12')).toBeUndefined();
  });

  it('are searched by a piece written as people write it, read as the stored numbers are', () => {
    expect(phoneSearchText('+33 6 12')).toBe('0612');
    expect(phoneSearchText('0033 6')).toBe('06');
    expect(phoneSearchText('12 34')).toBe('1234');
    expect(phoneSearchText('06.12-34')).toBe('061234');
    expect(phoneSearchText('+262 69')).toBe('069');
    expect(phoneSearchText('+4')).toBe('+4');
    expect(phoneSearchText(' ')).toBe('');
  });
});
