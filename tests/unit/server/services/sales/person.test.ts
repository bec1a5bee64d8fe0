import { describe, expect, it } from 'vitest';
import type { LandingColumn } from '../../../../../src/api/landings/contract';
import { personOf } from '../../../../../server/services/sales/person';

const columns: Pick<LandingColumn, 'key' | 'type'>[] = [
  { key: 'nom', type: 'text' },
  { key: 'telephone', type: 'phone' },
  { key: 'portable', type: 'phone' },
  { key: 'mail', type: 'email' },
  { key: 'mail2', type: 'email' },
];

describe('personOf', () => {
  it('reads the national digits of the first phone column', () => {
    expect(personOf({ telephone: '+33 6 12 34 56 78', portable: '0700000000' }, columns).phone).toBe('0612345678');
    expect(personOf({ telephone: '06.12.34.56.78' }, columns).phone).toBe('0612345678');
    expect(personOf({ telephone: '0033 6 12 34 56 78' }, columns).phone).toBe('0033612345678');
    // Ten digits starting with 33 are a national number already; a number stored as such is read as its digits.
    expect(personOf({ telephone: 3312345678 }, columns).phone).toBe('3312345678');
    expect(personOf({ telephone: '33612345678' }, columns).phone).toBe('0612345678');
  });

  it('reads the first email column trimmed and lower-cased', () => {
    expect(personOf({ mail: '  Jean.Dupont@Exemple.FR ', mail2: 'autre@exemple.fr' }, columns).email).toBe('jean.dupont@exemple.fr');
  });

  it('is null where the field is empty, absent, or the landing has no such column', () => {
    expect(personOf({ telephone: 'pas de numéro', mail: '   ', portable: '0612345678' }, columns)).toEqual({ phone: null, email: null });
    expect(personOf({ telephone: null }, columns)).toEqual({ phone: null, email: null });
    expect(personOf({ telephone: '0612345678', mail: 'a@b.fr' }, [{ key: 'nom', type: 'text' }])).toEqual({ phone: null, email: null });
  });
});
