import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json } from './leads-support';

// A run through sign-in, intake, list filters, export, download, import, account creation and a
// few failures, with the logs kept: every line of a request names it, and no line holds a
// token, a password or a lead's personal data.

const lines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: 'debug' }, { logStream: { write: (line: string) => lines.push(line) } });
});
afterAll(() => server.close());

const person = { nom: 'Zébulon-Secretname', telephone: '0611223344', email: 'secret.person@exemple.fr', code_postal: '30000' };

describe('logs', () => {
  it('carry the request id on every line of a request, and no secret or personal data', async () => {
    const secrets: string[] = [ADMIN.password, person.nom, person.telephone, person.email, 'Rue-Secrete-42', 'acheteur-secret'];
    const token = await server.login(ADMIN.email, ADMIN.password);
    secrets.push(token);
    expect((await server.request('POST', '/api/auth', { body: { email: ADMIN.email, password: 'wrong-Secret-pw' } })).status).toBe(401);
    secrets.push('wrong-Secret-pw');

    const landing = await createLanding(server.ctx.db, {
      columns: [
        { key: 'nom', label: 'Nom', type: 'text', required: true },
        { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
        { key: 'email', label: 'Email', type: 'email', required: false },
        { key: 'code_postal', label: 'Code postal', type: 'postal_code', required: true },
        { key: 'adresse', label: 'Adresse', type: 'text', required: false },
      ],
    });
    const intake = await server.request('POST', `/api/intake/${landing.key}`, { body: { ...person, adresse: 'Rue-Secrete-42' } });
    expect(intake.status).toBe(201);
    const requestId = intake.headers.get('x-request-id');
    const { data: lead } = await json<{ data: { id: number } }>(intake);
    await server.request('POST', `/api/intake/${landing.key}`, { body: { ...person, telephone: 'bad-0611223344' } });

    const list = await server.request(
      'GET',
      `/api/landings/data/${landing.id}?filter[nom]=${encodeURIComponent(person.nom)}&in[telephone]=${person.telephone}&_limit=10`,
      { token },
    );
    expect(list.status).toBe(200);
    const exported = await json<{ data: { url: string; token: string } }>(
      await server.request('POST', `/api/landings/data/${landing.id}/export`, {
        token,
        body: { bookType: 'csv', leads: [lead.id], for_customer: 'acheteur-secret' },
      }),
    );
    secrets.push(exported.data.token);
    expect((await server.request('GET', exported.data.url)).status).toBe(200);
    await server.request('POST', `/api/landings/${landing.id}/import/excel`, {
      token,
      body: { form_import_from: 'Salon', data: [{ nom: person.nom, telephone: person.telephone, code_postal: '3' }] },
    });
    await server.request('GET', `/api/me?token=${token}`);
    await server.request('POST', '/api/auth/register', { token, body: { name: 'Nouvelle Personne', email: 'new.staff.secret@test.local' } });
    secrets.push('new.staff.secret@test.local');
    // The welcome mail is written by a job: wait for its log line.
    await until(() => lines.some((l) => l.includes('mail written to outbox')), 30_000, 'the welcome mail written');

    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const ofRequests = parsed.filter((l) => 'req' in l || 'res' in l || 'err' in l);
    expect(ofRequests.length).toBeGreaterThanOrEqual(20);
    expect(ofRequests.filter((l) => typeof l.reqId !== 'string')).toEqual([]);
    expect(parsed.filter((l) => l.reqId === requestId).map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(lines.some((l) => l.includes('mail written to outbox'))).toBe(true);
    const leaks = secrets.flatMap((secret) => lines.filter((l) => l.includes(secret)).map((l) => `${secret} in ${l}`));
    expect(leaks).toEqual([]);
  }, 60_000);
});
