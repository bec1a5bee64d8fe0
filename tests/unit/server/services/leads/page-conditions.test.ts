import { describe, expect, it } from 'vitest';
import { Params } from '../../../../../server/db/params';
import { containsOperator, leadConditions, pageConditions } from '../../../../../server/services/leads/filters';
import { column, landing } from './landing-fixture';

const landing1 = landing(1, [column('nom', 'text'), column('telephone', 'phone'), column('chauffage', 'select'), column('date_projet', 'date')]);
const filters = {
  contains: { nom: 'Rousseau', telephone: '0612', utm_source: 'fb' },
  values: { chauffage: ['Gaz'], departement: ['13', '30'] },
  dates: { date_projet: '2026-01-01<>', created_at: '2026-01-01<>2026-01-31' },
};

describe("a page's conditions", () => {
  it("show the planner a range of creation days, a test of known UTM values and the text columns' 'contains', whose values it has statistics of", () => {
    const { tab, always, searched, indexed, unknown } = pageConditions([landing1], 'new', filters, new Params());
    expect(tab).toEqual(['l.landing_id = $1::int', 'l.entry_status = $2']);
    expect(searched).toEqual(['(l.data->>$3)::text ILIKE $4']);
    // A UTM value is first looked for among the landing's known values, once.
    expect(always).toEqual([
      "EXISTS (SELECT FROM lead_known_values v WHERE v.landing_id = ANY($7::int[]) AND v.name = 'utm_source' AND v.value ILIKE $6)",
      "l.created_at >= ($13::date::timestamp AT TIME ZONE 'Europe/Paris')",
      "l.created_at < (($14::date + 1)::date::timestamp AT TIME ZONE 'Europe/Paris')",
    ]);
    // The UTM source, the department and the phone that intake copies from the landing's only
    // phone column are columns of leads_list_idx: a page may test them there.
    expect(indexed).toEqual(['l.phone::text LIKE $5', 'l.utm_source::text ILIKE $6', 'l.departement::text = ANY($10::text[])']);
    expect(unknown).toHaveLength(2);
  });

  it("are the list's conditions", () => {
    const { tab, always, searched, indexed, unknown } = pageConditions([landing1], 'new', filters, new Params());
    expect([...tab, ...always, ...searched, ...indexed, ...unknown].sort()).toEqual(leadConditions([landing1], 'new', filters, new Params()).sort());
  });
});

describe("a 'contains' filter's operator", () => {
  it('is LIKE for a text of digits and ASCII signs alone, which no case folding changes, and ILIKE for any other', () => {
    for (const text of ['0612', '13 008', '130', '@.-_%[]{}~`', '']) expect(containsOperator(text), text).toBe('LIKE');
    for (const text of ['ab1', 'A', 'Z', 'z', 'é', 'İ', '\u0307', '819780a2', 'ǅ']) expect(containsOperator(text), text).toBe('ILIKE');
  });
});
