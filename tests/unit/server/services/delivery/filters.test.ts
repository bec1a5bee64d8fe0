import { describe, expect, it } from 'vitest';
import { ageOn, failingFilter, passesFilter, type FilteredLead, type RuleFilter } from '../../../../../server/services/delivery/filters';
import { personOf } from '../../../../../server/services/sales/person';

const columns = [
  { key: 'chauffage', type: 'select' as const },
  { key: 'nom', type: 'text' as const },
  { key: 'surface', type: 'number' as const },
  { key: 'projet', type: 'date' as const },
  { key: 'naissance', type: 'date' as const },
  { key: 'code_postal', type: 'postal_code' as const },
];
const lead = (data: Record<string, unknown>, over: Partial<FilteredLead> = {}): FilteredLead => ({
  data,
  source: 'google',
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  arrival_day: '2026-11-23',
  ...over,
});
const passes = (filter: RuleFilter, data: Record<string, unknown>, over: Partial<FilteredLead> = {}) => passesFilter(filter, lead(data, over), columns);

describe('rule filters', () => {
  it('compare text trimmed and case-insensitively: eq, neq, in, not_in', () => {
    expect(passes({ column: 'chauffage', op: 'eq', value: 'gaz' }, { chauffage: ' Gaz ' })).toBe(true);
    expect(passes({ column: 'chauffage', op: 'eq', value: 'gaz' }, { chauffage: 'Fioul' })).toBe(false);
    expect(passes({ column: 'chauffage', op: 'neq', value: 'GAZ' }, { chauffage: 'gaz' })).toBe(false);
    expect(passes({ column: 'chauffage', op: 'in', value: ['Fioul', 'Gaz'] }, { chauffage: 'GAZ' })).toBe(true);
    expect(passes({ column: 'chauffage', op: 'not_in', value: ['Fioul', 'Gaz'] }, { chauffage: 'Électrique' })).toBe(true);
    expect(passes({ column: 'code_postal', op: 'in', value: ['30900', '30000'] }, { code_postal: '30900' })).toBe(true);
  });

  it('never read a form value from the prototype (a column keyed constructor)', () => {
    const withConstructor = [...columns, { key: 'constructor', type: 'text' as const }];
    const filter = { column: 'constructor', op: 'eq', value: 'x' } as const;
    // Absent, the value is empty, not Object's constructor as text.
    expect(passesFilter({ ...filter, value: String(Object) }, lead({}), withConstructor)).toBe(false);
    expect(passesFilter({ ...filter, op: 'neq' }, lead({}), withConstructor)).toBe(true);
    expect(passesFilter(filter, lead(JSON.parse('{"constructor":"X"}') as Record<string, unknown>), withConstructor)).toBe(true);
  });

  it('read the lead columns source and utm_*', () => {
    expect(passes({ column: 'source', op: 'eq', value: 'Google' }, {})).toBe(true);
    expect(passes({ column: 'utm_campaign', op: 'in', value: ['ete'] }, {}, { utm_campaign: 'ETE' })).toBe(true);
    expect(passes({ column: 'utm_source', op: 'eq', value: 'fb' }, {})).toBe(false);
    expect(passes({ column: 'utm_source', op: 'neq', value: 'fb' }, {})).toBe(true);
  });

  it('compare numbers as numbers and dates as days, both ends included', () => {
    expect(passes({ column: 'surface', op: 'gte', value: 100 }, { surface: 100 })).toBe(true);
    expect(passes({ column: 'surface', op: 'gte', value: 100 }, { surface: 99.5 })).toBe(false);
    expect(passes({ column: 'surface', op: 'lte', value: 100 }, { surface: '80' })).toBe(true);
    expect(passes({ column: 'surface', op: 'between', value: [9, 100] }, { surface: 10 })).toBe(true);
    expect(passes({ column: 'surface', op: 'between', value: [9, 100] }, { surface: 101 })).toBe(false);
    expect(passes({ column: 'projet', op: 'gte', value: '2026-12-01' }, { projet: '2026-12-01' })).toBe(true);
    expect(passes({ column: 'projet', op: 'between', value: ['2026-01-01', '2026-06-30'] }, { projet: '2026-07-01' })).toBe(false);
  });

  it('count ages in whole years at the lead’s arrival day', () => {
    expect(ageOn('1990-11-23', '2026-11-23')).toBe(36);
    expect(ageOn('1990-11-24', '2026-11-23')).toBe(35);
    expect(ageOn('2000-02-29', '2026-02-28')).toBe(25);
    const adults: RuleFilter = { column: 'naissance', op: 'age_between', value: [18, 65] };
    expect(passes(adults, { naissance: '2008-11-23' })).toBe(true);
    expect(passes(adults, { naissance: '2008-11-24' })).toBe(false);
    expect(passes(adults, { naissance: '1960-11-24' })).toBe(true);
    expect(passes(adults, { naissance: '1960-11-23' })).toBe(false);
    // Judged at arrival, not at routing: the same birth date a day later.
    expect(passes(adults, { naissance: '2008-11-24' }, { arrival_day: '2026-11-24' })).toBe(true);
  });

  it('fail a lead lacking the field, except neq and not_in', () => {
    for (const data of [{}, { chauffage: '' }, { chauffage: null }, { chauffage: '  ' }]) {
      expect(passes({ column: 'chauffage', op: 'eq', value: 'gaz' }, data)).toBe(false);
      expect(passes({ column: 'chauffage', op: 'in', value: ['gaz'] }, data)).toBe(false);
      expect(passes({ column: 'chauffage', op: 'neq', value: 'gaz' }, data)).toBe(true);
      expect(passes({ column: 'chauffage', op: 'not_in', value: ['gaz'] }, data)).toBe(true);
    }
    expect(passes({ column: 'surface', op: 'gte', value: 0 }, { surface: 'beaucoup' })).toBe(false);
    expect(passes({ column: 'naissance', op: 'age_between', value: [0, 200] }, { naissance: '23/11/1990' })).toBe(false);
    expect(passes({ column: 'absente', op: 'not_in', value: ['x'] }, {})).toBe(true);
  });

  it('name the first filter a lead fails', () => {
    const filters: RuleFilter[] = [
      { column: 'surface', op: 'gte', value: 50 },
      { column: 'chauffage', op: 'eq', value: 'gaz' },
      { column: 'nom', op: 'neq', value: 'test' },
    ];
    expect(failingFilter(filters, lead({ surface: 80, chauffage: 'fioul', nom: 'test' }), columns)).toEqual(filters[1]);
    expect(failingFilter(filters, lead({ surface: 80, chauffage: 'gaz', nom: 'Dupont' }), columns)).toBeNull();
    expect(failingFilter([], lead({}), columns)).toBeNull();
  });
});

describe('a sale’s person', () => {
  const form = [
    { key: 'tel', type: 'phone' as const },
    { key: 'tel2', type: 'phone' as const },
    { key: 'mail', type: 'email' as const },
  ];
  it('keeps the first phone’s digits (33 of an 11-digit number read as 0) and the first email lower-cased', () => {
    expect(personOf({ tel: '+33 6 12 34 56 78', tel2: '0700000000', mail: ' Jean.Dupont@Example.FR ' }, form)).toEqual({
      phone: '0612345678',
      email: 'jean.dupont@example.fr',
    });
    expect(personOf({ tel: '06.12.34.56.78' }, form)).toEqual({ phone: '0612345678', email: null });
    // Not 11 digits: the 33 stays.
    expect(personOf({ tel: '0033612345678' }, form).phone).toBe('0033612345678');
    expect(personOf({ tel: 'inconnu', mail: '  ' }, form)).toEqual({ phone: null, email: null });
    expect(personOf({ tel: '0612345678' }, [{ key: 'tel', type: 'text' }])).toEqual({ phone: null, email: null });
  });
});
