import { describe, expect, it } from 'vitest';
import { Params } from '../../../../../server/db/params';
import { personPaths } from '../../../../../server/services/leads/person-search';
import { column, landing } from './landing-fixture';

const pg = { kind: 'pg' } as const;
const one = landing(1, [column('nom', 'text'), column('telephone', 'phone'), column('email', 'email'), column('cp', 'postal_code')]);
const other = landing(2, [column('nom', 'text'), column('tel', 'phone'), column('email', 'email')]);
const twoPhones = landing(3, [column('telephone', 'phone'), column('portable', 'phone')]);
const twoPostalCodes = landing(4, [column('cp', 'postal_code'), column('cp_chantier', 'postal_code')]);

describe("the ways in through lead_persons for 'contains' filters on phones, emails and postal codes", () => {
  it("name the person's leads by their phone, email or postal code, the text bound as the filter's pattern", () => {
    const params = new Params();
    expect(personPaths(pg, [one], { contains: { telephone: '0612', email: 'mar_tin' } }, params)).toEqual([
      { key: 'telephone', sql: 'l.id IN (SELECT p.lead_id FROM lead_persons p WHERE p.landing_id = $1::int AND p.phone LIKE $2)' },
      { key: 'email', sql: 'l.id IN (SELECT p.lead_id FROM lead_persons p WHERE p.landing_id = $3::int AND p.email ILIKE $4)' },
    ]);
    expect(params.values).toEqual([1, '%0612%', 1, '%mar\\_tin%']);
    // Looked for as the filter does: a phone as stored, an email without its edge spaces; LIKE where the text has no letter.
    const typed = new Params();
    personPaths(pg, [one], { contains: { telephone: '+33 6 12', email: ' martin ' } }, typed);
    expect(typed.values).toEqual([1, '%0612%', 1, '%martin%']);
    const postal = new Params();
    expect(personPaths(pg, [one], { contains: { cp: '13 0' } }, postal)).toEqual([
      { key: 'cp', sql: 'l.id IN (SELECT p.lead_id FROM lead_persons p WHERE p.landing_id = $1::int AND p.postal_code LIKE $2)' },
    ]);
    expect(postal.values).toEqual([1, '%130%']);
  });

  it('read the landings that have the column, whatever their other columns are called', () => {
    const params = new Params();
    expect(personPaths(pg, [one, other], { contains: { email: 'martin' } }, params)).toEqual([
      { key: 'email', sql: 'l.id IN (SELECT p.lead_id FROM lead_persons p WHERE p.landing_id = ANY($1::int[]) AND p.email ILIKE $2)' },
    ]);
    expect(params.values).toEqual([[1, 2], '%martin%']);
    expect(personPaths(pg, [one, other], { contains: { tel: '0612' } }, new Params())).toHaveLength(1);
  });

  it("are none where the person may not be the column's value, or where the index finds nothing", () => {
    // A second phone column: the person's phone is whichever of the two came first.
    expect(personPaths(pg, [twoPhones], { contains: { telephone: '0612' } }, new Params())).toEqual([]);
    expect(personPaths(pg, [one, twoPhones], { contains: { telephone: '0612' } }, new Params())).toEqual([]);
    expect(personPaths(pg, [one, twoPostalCodes], { contains: { cp: '130' } }, new Params())).toEqual([]);
    // Other types, or two letters (no trigram), or the embedded database (no such index).
    expect(personPaths(pg, [one], { contains: { nom: 'martin' }, values: { telephone: ['0612345678'] } }, new Params())).toEqual([]);
    expect(personPaths(pg, [one], { contains: { telephone: '06' } }, new Params())).toEqual([]);
    expect(personPaths(pg, [one], { contains: { telephone: '06 .' } }, new Params())).toEqual([]);
    expect(personPaths({ kind: 'pglite' }, [one], { contains: { telephone: '0612' } }, new Params())).toEqual([]);
    // Left to leads_list_idx: the phone and the email, which intake copies into the lead.
    const copied = personPaths(pg, [one], { contains: { telephone: '0612', email: 'martin', cp: '130' } }, new Params(), { copied: false });
    expect(copied.map((p) => p.key)).toEqual(['cp']);
  });
});
