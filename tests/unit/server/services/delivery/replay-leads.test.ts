// The replayed leads as columns (issue 27): each text the rules compare held once, each lead its index;
// the person made comparable as personOf makes it, the values filters read kept apart by type.
import { describe, expect, it } from 'vitest';
import { personIndex, replayLeads } from '../../../../../server/services/delivery/replay-leads';

describe('replayLeads', () => {
  const leads = replayLeads({
    id: [7, 3, 9],
    landing_id: [2, 5, 2],
    at: [1000, 2000, 3000],
    departement: ['30', '', '30'],
    postal_code: ['30900', '7501', null],
    phone: ['+33 6 12 34 56 78', '06 12 34 56 78', null],
    email: [null, ' Jean@Exemple.FR ', ''],
    fields: { surface: [20, '20', { m2: 20 }], source: ['google', null, 'google'] },
  });

  it('holds the landings, departments and 5-digit postal codes once, each lead its index (-1: none)', () => {
    expect(Array.from(leads.id)).toEqual([7, 3, 9]);
    expect(leads.landings).toEqual([2, 5]);
    expect(Array.from(leads.landing)).toEqual([0, 1, 0]);
    expect(leads.zips[0]).toBe('');
    expect(Array.from(leads.departement, (z) => leads.zips[z] ?? null)).toEqual(['30', null, '30']);
    expect(Array.from(leads.postalCode, (z) => leads.zips[z] ?? null)).toEqual(['30900', null, null]);
  });

  it('makes one person of a phone written two ways, and of an email in any case; a past sale of nobody replayed yet gets an index of its own', () => {
    expect([...leads.persons.phones.keys()]).toEqual(['0612345678']);
    expect(Array.from(leads.phone)).toEqual([0, 0, -1]);
    expect(Array.from(leads.email)).toEqual([-1, 0, -1]);
    expect(personIndex(leads.persons.emails, 'jean@exemple.fr')).toBe(0);
    // A lead appended to the kept world later may be that person (replay-world.ts).
    expect(personIndex(leads.persons.phones, '0700000000')).toBe(1);
    expect(personIndex(leads.persons.phones, '0700000000')).toBe(1);
    expect(personIndex(leads.persons.phones, null)).toBe(-1);
  });

  it('codes the filtered values by value and type, an object or a null as none', () => {
    const surface = leads.fields.get('surface')!;
    expect(surface.values).toEqual([20, '20']);
    expect(Array.from(surface.codes)).toEqual([0, 1, -1]);
    expect(Array.from(leads.fields.get('source')!.codes)).toEqual([0, -1, 0]);
  });
});
