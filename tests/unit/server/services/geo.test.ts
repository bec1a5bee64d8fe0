import { describe, expect, it } from 'vitest';
import { CLIMATE_ZONES, departementFor, normalizePostalCode, postalCodesByDepartement, zoneFor } from '../../../../server/services/geo';

describe('departementFor', () => {
  it('maps ordinary codes to their department', () => {
    expect(departementFor('30000')).toBe('30');
    expect(departementFor('34000')).toBe('34');
    expect(departementFor('75001')).toBe('75');
    expect(departementFor('69003')).toBe('69');
    expect(departementFor('97400')).toBe('974');
  });

  it('splits Corsica at 20200: 2A below, 2B from it', () => {
    expect(departementFor('20000')).toBe('2A');
    expect(departementFor('20167')).toBe('2A');
    expect(departementFor('20200')).toBe('2B');
    expect(departementFor('20600')).toBe('2B');
  });

  it('puts Saint-Barthélemy and Saint-Martin in 977 and 978, not Guadeloupe', () => {
    expect(departementFor('97133')).toBe('977');
    expect(departementFor('97150')).toBe('978');
    expect(departementFor('97100')).toBe('971');
  });

  it('follows the communes, not the prefix, for codes carrying a neighbour’s number', () => {
    // Paray-Vieille-Poste (Essonne) is served by 94390.
    expect(departementFor('94390')).toBe('91');
    // Shared codes go to the department where most of their inhabitants live.
    expect(departementFor('05110')).toBe('05'); // also serves communes of 04
    expect(departementFor('52100')).toBe('52'); // also serves communes of 51
    expect(departementFor('33220')).toBe('33'); // also serves communes of 24
  });

  it('answers "" for unknown or malformed codes, never a guess', () => {
    expect(departementFor('30999')).toBe('');
    expect(departementFor('99999')).toBe('');
    expect(departementFor('abcde')).toBe('');
    expect(departementFor('')).toBe('');
    expect(departementFor(null)).toBe('');
  });

  it('accepts spaces and the leading zero a spreadsheet dropped', () => {
    expect(normalizePostalCode(' 30 000 ')).toBe('30000');
    expect(normalizePostalCode(1400)).toBe('01400');
    expect(departementFor(1400)).toBe('01');
    expect(departementFor('06 000')).toBe('06');
  });
});

describe('zoneFor', () => {
  it('gives the official climate zone of each metropolitan department', () => {
    expect(zoneFor('75')).toBe('H1a');
    expect(zoneFor('67')).toBe('H1b');
    expect(zoneFor('69')).toBe('H1c');
    expect(zoneFor('29')).toBe('H2a');
    expect(zoneFor('44')).toBe('H2b');
    expect(zoneFor('33')).toBe('H2c');
    expect(zoneFor('84')).toBe('H2d');
    expect(zoneFor('30')).toBe('H3');
    expect(zoneFor('2A')).toBe('H3');
    expect(zoneFor('2B')).toBe('H3');
  });

  it('has no zone overseas or for an unknown department', () => {
    expect(zoneFor('971')).toBe('');
    expect(zoneFor('974')).toBe('');
    expect(zoneFor('')).toBe('');
  });

  it('covers the 96 metropolitan departments exactly once', () => {
    const all = Object.values(CLIMATE_ZONES).flat();
    expect(all).toHaveLength(96);
    expect(new Set(all).size).toBe(96);
    const metro = [...postalCodesByDepartement().keys()].filter((d) => d.length === 2);
    expect(metro.sort()).toEqual([...all].sort());
  });
});

describe('postalCodesByDepartement', () => {
  it('lists real codes per department, each mapping back to it', () => {
    const byDep = postalCodesByDepartement();
    const gard = byDep.get('30')!;
    expect(gard.map((p) => p.code)).toContain('30000');
    expect(gard.every((p) => departementFor(p.code) === '30' && p.population > 0)).toBe(true);
    expect(byDep.get('2A')!.every((p) => p.code < '20200')).toBe(true);
    expect(byDep.get('977')!.map((p) => p.code)).toEqual(['97133']);
  });
});
