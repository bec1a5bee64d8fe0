import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../../../../server/db/connection';
import { Params } from '../../../../../server/db/params';
import { countConditions } from '../../../../../server/services/leads/list';
import { column, landing } from './landing-fixture';

const landing1 = landing(1, [column('nom', 'text'), column('telephone', 'phone'), column('email', 'email'), column('cp', 'postal_code')]);
const filters = { contains: { email: 'martin', cp: '130', nom: 'Rou' } };

/** A database that answers every query with a tab of `leads` leads. */
const tabOf = (kind: Queryable['kind'], leads: number) => ({ kind, query: async () => ({ rows: [{ n: leads }] }) }) as unknown as Queryable;

describe("an exact count's conditions", () => {
  it("test an email on the lead's own column and a postal code by its person alone, in a tab up to two million leads", async () => {
    const where = await countConditions(tabOf('pg', 761_036), [landing1], 'new', filters, new Params());
    expect(where.filter((c) => c.includes('lead_persons'))).toEqual([
      'l.id IN (SELECT p.lead_id FROM lead_persons p WHERE p.landing_id = $1::int AND p.postal_code LIKE $2)',
    ]);
    expect(where).toContain('l.email::text ILIKE $5');
    expect(where.some((c) => c.includes("'cp'") || c.includes('code_postal'))).toBe(false);
    expect(where).toHaveLength(5);
  });

  it("leave a bigger tab to the email's person path, without the email's own condition", async () => {
    const where = await countConditions(tabOf('pg', 3_000_000), [landing1], 'new', filters, new Params());
    expect(where.filter((c) => c.includes('lead_persons'))).toHaveLength(2);
    expect(where.some((c) => c.includes('l.email'))).toBe(false);
    expect(where).toHaveLength(5);
  });

  it("are the list's conditions on the embedded database, which has no person paths", async () => {
    const params = new Params();
    const where = await countConditions(tabOf('pglite', 3_000_000), [landing1], 'new', filters, params);
    expect(where).toHaveLength(5);
    expect(where.some((c) => c.includes('lead_persons'))).toBe(false);
    expect(params.values).toEqual([1, 'new', '%martin%', 'cp', '%130%', 'nom', '%Rou%']);
  });
});
