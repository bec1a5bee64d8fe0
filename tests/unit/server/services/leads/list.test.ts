import { describe, expect, it } from 'vitest';
import { toLeadRow, type LeadDbRow } from '../../../../../server/services/leads/list';

const dbRow = (data: Record<string, unknown>): LeadDbRow => ({
  id: 7,
  created_at: '2026-11-28T10:00:00Z',
  updated_at: new Date('2026-11-28T11:00:00Z'),
  landing_id: 3,
  entry_status: 'new',
  source: 'taboola',
  utm_source: null,
  utm_medium: 'import',
  utm_campaign: null,
  url_presale: null,
  visitor: null,
  departement: '30',
  zone_climatique: 'H3',
  sold_to: null,
  convert: null,
  rapport_id: null,
  data,
});

describe('toLeadRow', () => {
  it('puts the form values beside the fixed columns, which a form value of the same name never replaces', () => {
    const row = toLeadRow(dbRow({ nom: 'Dupont', surface: 120, departement: '75', entry_status: 'archived' }));
    expect(row).toEqual({
      id: 7,
      created_at: '2026-11-28T10:00:00.000Z',
      updated_at: '2026-11-28T11:00:00.000Z',
      landing: 3,
      entry_status: 'new',
      source: 'taboola',
      utm_source: null,
      utm_medium: 'import',
      utm_campaign: null,
      url_presale: null,
      visitor: null,
      departement: '30',
      zone_climatique: 'H3',
      sold_to: null,
      convert: null,
      rapport_id: null,
      nom: 'Dupont',
      surface: 120,
    });
  });

  it("keeps a form key named '__proto__' as a value of the row, never as its prototype", () => {
    const data = JSON.parse('{"__proto__": {"admin": true}, "constructor": "x", "nom": "Durand"}') as Record<string, unknown>;
    const row = toLeadRow(dbRow(data)) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ admin: true });
    expect(row.admin).toBeUndefined();
    expect(row.constructor).toBe('x');
    expect(JSON.stringify(row)).toContain('"__proto__":{"admin":true},"constructor":"x","nom":"Durand"');
  });
});
