import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json, normalUserToken } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

// Landing pages post plain HTML forms (issue 24, item 7): url-encoded and multipart bodies, and
// a thank-you page the form is sent to (303) after its post, with the refusal in ?error=.

let server: TestServer;
let token: string;
let landing: { id: number; key: string };
const thanks = 'https://lp.example.com/merci?campagne=ete';

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db);
});
afterAll(() => server.close());

let ipSeq = 0;
const post = (body: BodyInit, type?: string) =>
  fetch(`${server.url}/api/intake/${landing.key}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'x-forwarded-for': `198.51.100.${++ipSeq}`, ...(type ? { 'content-type': type } : {}) },
    body,
  });
const urlencoded = (fields: Record<string, string>) => post(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
const multipart = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return post(form);
};
const setThanks = (url: string | null, auth = token) => server.request('PATCH', `/api/landings/${landing.id}`, { token: auth, body: { thank_you_url: url } });
const leadOf = async (phone: string) =>
  (
    await server.ctx.db.query<{ entry_status: string; data: object; source: string }>(
      'SELECT entry_status, data, source FROM leads WHERE phone = $1 ORDER BY id',
      [phone],
    )
  ).rows;

describe("a landing's thank-you page", () => {
  it('is set by an admin as an http(s) URL or null; anything else is a 422, a normal user a 403', async () => {
    const refused = await setThanks('javascript:alert(1)');
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ errors: { thank_you_url: 'Adresse http(s) invalide' } });
    expect((await setThanks('/merci')).status).toBe(422);
    expect((await setThanks(thanks, await normalUserToken(server))).status).toBe(403);
    const res = await setThanks(thanks);
    expect(res.status).toBe(200);
    expect((await json<{ data: { thank_you_url: string } }>(res)).data.thank_you_url).toBe(thanks);
    const read = await json<{ data: { thank_you_url: string } }>(await server.request('GET', `/api/landings/${landing.id}`, { token }));
    expect(read.data.thank_you_url).toBe(thanks);
  });
});

describe('a form post to the intake', () => {
  it('takes url-encoded and multipart bodies and sends the form to the thank-you page (303)', async () => {
    await setThanks(thanks);
    const plain = await urlencoded({ nom: 'Dupont', telephone: '06 11 22 33 44', code_postal: '30900', source: 'Taboola' });
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(thanks);
    expect(await leadOf('0611223344')).toEqual([
      { entry_status: 'new', source: 'taboola', data: { nom: 'Dupont', telephone: '0611223344', code_postal: '30900' } },
    ]);

    const parts = await multipart({ nom: 'Martin', telephone: '0611223355', code_postal: '75001' });
    expect(parts.status).toBe(303);
    expect(parts.headers.get('location')).toBe(thanks);
    // The same checks as JSON: the same phone again is a duplicate, still thanked.
    expect((await multipart({ nom: 'Martin', telephone: '0611223355', code_postal: '75001' })).status).toBe(303);
    expect((await leadOf('0611223355')).map((l) => l.entry_status)).toEqual(['new', 'duplicate']);
  });

  it('sends a refused form back to the thank-you page with the French message in ?error=', async () => {
    await setThanks(thanks);
    const refused = await urlencoded({ nom: '', telephone: '12', code_postal: '30900' });
    expect(refused.status).toBe(303);
    const target = new URL(refused.headers.get('location')!);
    expect(target.origin + target.pathname).toBe('https://lp.example.com/merci');
    expect(target.searchParams.get('campagne')).toBe('ete');
    expect(target.searchParams.get('error')).toMatch(/^Merci de vérifier les champs : .*telephone \(/);
    const protoKey = await post('__proto__=1&nom=x', 'application/x-www-form-urlencoded');
    expect(new URL(protoKey.headers.get('location')!).searchParams.get('error')).toBe('Nom de champ interdit dans le formulaire envoyé');
    const file = new FormData();
    file.append('nom', 'x');
    file.append('piece', new Blob(['x']), 'x.txt');
    expect(new URL((await post(file)).headers.get('location')!).searchParams.get('error')).toBe("Ce formulaire n'accepte pas de fichier");
  });

  it('answers JSON to scripts, and to forms of a landing without a thank-you page', async () => {
    await setThanks(thanks);
    const script = await post(JSON.stringify({ nom: 'Script', telephone: '0611223366', code_postal: '30900' }), 'application/json');
    expect(script.status).toBe(201);
    expect(await script.json()).toEqual({ data: { id: expect.any(Number), entry_status: 'new' } });
    // The intakes keep their landing a while: a change made here reaches the very next post.
    await setThanks(null);
    const form = await urlencoded({ nom: 'Sans merci', telephone: '0611223377', code_postal: '30900' });
    expect(form.status).toBe(201);
    const refused = await urlencoded({ telephone: '12' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ error: 'validation_failed', errors: { telephone: expect.any(String) } });
  });

  it('offers a form-posted lead to the live rules, like a JSON one', async () => {
    await setThanks(thanks);
    const customer = await createCustomer(server, token);
    await createRule(server, token, { customer_id: customer, landings: [landing.id] });
    expect((await urlencoded({ nom: 'Livré', telephone: '0611223388', code_postal: '30900' })).status).toBe(303);
    await until(async () => (await leadOf('0611223388'))[0]?.entry_status === 'extracted', 30_000, 'the delivery');
  });
});
