import { describe, expect, it } from 'vitest';
import type { LandingColumn } from '../../../../../src/api/landings/contract';
import { deriveFields, own, setValue } from '../../../../../server/services/leads/normalize';

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
