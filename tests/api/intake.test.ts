import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { createLanding, json } from './leads-support';

let server: TestServer;
let landing: { id: number; key: string };

beforeAll(async () => {
  server = await startServer();
  landing = await createLanding(server.ctx.db);
});
afterAll(() => server.close());

const send = (body: unknown, key = landing.key, ip = '203.0.113.1') =>
  server.request('POST', `/api/intake/${key}`, { body, headers: { origin: 'https://lp.example.com', 'x-forwarded-for': ip } });

describe('intake', () => {
  it('accepts a lead without a token, normalises the phone, derives department and zone, answers 201', async () => {
    const res = await send({
      nom: '<script>alert(1)</script>',
      telephone: '+33 6 12 34 56 78',
      code_postal: '30900',
      email: 'A@B.FR',
      source: 'Taboola',
      utm_campaign: "c'1",
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await json<{ data: { id: number; entry_status: string } }>(res);
    expect(body.data).toEqual({ id: expect.any(Number), entry_status: 'new' });
    const { rows } = await server.ctx.db.query('SELECT phone, email, departement, zone_climatique, source, utm_campaign, data FROM leads WHERE id = $1', [
      body.data.id,
    ]);
    expect(rows[0]).toEqual({
      phone: '0612345678',
      email: 'a@b.fr',
      departement: '30',
      zone_climatique: 'H3',
      source: 'taboola',
      utm_campaign: "c'1",
      data: { nom: '<script>alert(1)</script>', telephone: '0612345678', code_postal: '30900', email: 'a@b.fr' },
    });
  });

  it('flags the same phone or email on the same landing within 30 days as a duplicate', async () => {
    const first = await json<{ data: { entry_status: string } }>(await send({ nom: 'A', telephone: '0700000001', code_postal: '75001', email: 'dup@x.fr' }));
    expect(first.data.entry_status).toBe('new');
    const samePhone = await json<{ data: { entry_status: string } }>(await send({ nom: 'B', telephone: '07 00 00 00 01', code_postal: '75001' }));
    expect(samePhone.data.entry_status).toBe('duplicate');
    const sameEmail = await json<{ data: { entry_status: string } }>(
      await send({ nom: 'C', telephone: '0700000002', code_postal: '75001', email: 'DUP@x.fr' }),
    );
    expect(sameEmail.data.entry_status).toBe('duplicate');
    const other = await createLanding(server.ctx.db);
    const elsewhere = await json<{ data: { entry_status: string } }>(await send({ nom: 'D', telephone: '0700000001', code_postal: '75001' }, other.key));
    expect(elsewhere.data.entry_status).toBe('new');
  });

  it('writes concurrent intakes together, each with its own answer: of one person, the first to arrive is new, the others its duplicates', async () => {
    const person = { nom: 'Même', telephone: '0700000101', code_postal: '30900' };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send(person, landing.key, `203.0.113.${100 + i}`).then((res) => json<{ data: { id: number; entry_status: string } }>(res)),
      ),
    );
    const byArrival = answers.map((a) => a.data).sort((a, b) => a.id - b.id);
    expect(byArrival.map((l) => l.entry_status)).toEqual(['new', ...Array<string>(11).fill('duplicate')]);
    const { rows } = await server.ctx.db.query<{ id: number; entry_status: string; transactions: number }>(
      `SELECT id, entry_status, count(*) OVER (PARTITION BY xmin::text) AS transactions FROM leads WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [byArrival.map((l) => l.id)],
    );
    expect(rows.map((r) => r.entry_status)).toEqual(byArrival.map((l) => l.entry_status));
    // Written together: some of them share a transaction (each alone, every count would be 1).
    expect(Math.max(...rows.map((r) => Number(r.transactions)))).toBeGreaterThan(1);
  });

  it('writes the others of a batch when the database refuses one intake in it', async () => {
    await server.ctx.db.exec(`ALTER TABLE leads ADD CONSTRAINT intake_test_refused CHECK (data->>'nom' <> 'Refusé') NOT VALID`);
    try {
      const top = async () => (await server.ctx.db.query<{ n: number }>('SELECT last_value AS n FROM leads_id_seq')).rows[0]!.n;
      const before = await top();
      const forms = Array.from({ length: 11 }, (_, i) => ({ nom: `Lot ${i}`, telephone: `07000002${String(i).padStart(2, '0')}`, code_postal: '30900' }));
      forms.push({ nom: 'Refusé', telephone: '0700000299', code_postal: '30900' });
      const answers = await Promise.all(forms.map((form, i) => send(form, landing.key, `203.0.113.${150 + i}`)));
      expect(answers.slice(0, 11).map((res) => res.status)).toEqual(Array<number>(11).fill(201));
      expect(answers[11]!.status).toBe(500);
      const ids = await Promise.all(answers.slice(0, 11).map(async (res) => (await json<{ data: { id: number } }>(res)).data.id));
      const { rows } = await server.ctx.db.query<{ nom: string }>(`SELECT data->>'nom' AS nom FROM leads WHERE landing_id = $1 AND data->>'nom' LIKE 'Lot %'`, [
        landing.id,
      ]);
      expect(rows.map((r) => r.nom).sort()).toEqual(
        forms
          .slice(0, 11)
          .map((f) => f.nom)
          .sort(),
      );
      expect(new Set(ids).size).toBe(11);
      // The batch that held the refused intake was tried (its ids spent), then each of it written alone.
      expect((await top()) - before).toBeGreaterThan(forms.length + 1);
    } finally {
      await server.ctx.db.exec('ALTER TABLE leads DROP CONSTRAINT intake_test_refused');
    }
  });

  it('keeps unknown postal codes with an empty department, never guessed', async () => {
    const res = await json<{ data: { id: number } }>(await send({ nom: 'X', telephone: '0612345670', code_postal: '99999' }));
    const { rows } = await server.ctx.db.query('SELECT departement, zone_climatique FROM leads WHERE id = $1', [res.data.id]);
    expect(rows[0]).toEqual({ departement: '', zone_climatique: '' });
  });

  it('answers preflight requests for any origin', async () => {
    const res = await server.request('OPTIONS', `/api/intake/${landing.key}`, {
      headers: { origin: 'https://lp.example.com', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('refuses invalid forms with 422 naming each field, and unknown landings with 404', async () => {
    const res = await send({ nom: '', telephone: '123', code_postal: 'abc', email: 'nope', source: 'tiktok' });
    expect(res.status).toBe(422);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await json<{ error: string; errors: Record<string, string> }>(res);
    expect(body.errors).toEqual({
      nom: 'Champ obligatoire',
      telephone: 'Numéro de téléphone invalide',
      code_postal: 'Code postal invalide',
      email: 'Adresse email invalide',
      source: expect.any(String),
    });
    expect((await send({ nom: 'x', telephone: '0612345678', code_postal: '30000' }, 'inconnue')).status).toBe(404);
    expect((await send([1, 2])).status).toBe(422);
    expect((await send({ nom: { $gt: '' }, telephone: '0612345678', code_postal: '30000' })).status).toBe(422);
    expect((await send({ nom: 'x'.repeat(6000), telephone: '0612345678', code_postal: '30000' })).status).toBe(422);
    const big = await send({ nom: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.status).toBe(413);
  });

  it('rate-limits each address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await send({ nom: 'x' }, landing.key, '198.51.100.7')).status);
    expect(statuses.every((s) => s === 422)).toBe(true);
    const limited = await send({ nom: 'x' }, landing.key, '198.51.100.7');
    expect(limited.status).toBe(429);
    expect(await json(limited)).toMatchObject({ error: 'rate_limited' });
    expect((await send({ nom: 'x' }, landing.key, '198.51.100.8')).status).toBe(422);
  });
});
