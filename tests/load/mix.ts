import { performance } from 'node:perf_hooks';
import Papa from 'papaparse';
import type autocannon from 'autocannon';
import type { LandingColumn } from '../../src/api/landings/contract';
import { leadListSearchParams, type LeadListQuery, type LeadFilters } from '../../src/api/leads/contract';
import type { Kind, Tally } from './tally';

export interface Session {
  token: string;
  admin: boolean;
}

export interface LoadLanding {
  id: number;
  key: string;
  category: 'pac' | 'pv' | 'other';
  columns: LandingColumn[];
}

export interface LoadFixture {
  sessions: Session[];
  landings: LoadLanding[];
  ruleIds: number[];
  /** Marks this run's intakes (utm_campaign) and exports (the buyer). */
  tag: string;
}

/** One visit of a signed-in client: autocannon's per-connection context, reset at each loop. */
interface Visit {
  session: Session;
  landing: LoadLanding;
  query: LeadListQuery;
  filters: LeadFilters;
  tab: 'archived' | 'trashed';
  // Read from answers: missing when the answer that gives them failed.
  page1?: number[];
  page2?: number[];
  cursor?: string | null;
  tabIds?: number[];
  action?: number;
  exported?: { url: string; token: string };
  /** Undefined for the health checks sent while the run drains. */
  kind?: Kind;
  /** The client address of a public call. */
  from?: string;
  sentAt: number;
}

interface Call {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Public calls (the intake) go without the bearer token, from the given client address. */
  from?: string;
}

interface Step {
  call(v: Visit): Call;
  /** Reads a 2xx answer (JSON, or the file's text for a download) into the visit. */
  read?(body: string, v: Visit): void;
}

const SORTS: Array<Pick<LeadListQuery, '_sort' | '_order'>> = [
  { _sort: 'created_at', _order: 'desc' },
  { _sort: 'created_at', _order: 'asc' },
  { _sort: 'nom', _order: 'asc' },
  { _sort: 'code_postal', _order: 'asc' },
  { _sort: 'updated_at', _order: 'desc' },
  { _sort: 'source', _order: 'asc' },
];
const DEPARTMENTS = [['30', '34'], ['13', '84'], ['31'], ['33', '40', '64'], ['69', '38']];
const SYLLABLES = ['ma', 'ri', 'er', 'on', 'la', 'de'];
const POSTAL_CODES = ['30000', '34000', '13001', '84000', '31000', '33000', '69003', '38000', '75011', '59000', '66000', '11100'];
/** One intake in four comes from this address, which soon passes the limit of 60 a minute. */
export const FLOODER = '127.99.0.1';

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const sample = <T>(list: readonly T[], n: number): T[] => [...list].sort(() => Math.random() - 0.5).slice(0, n);
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const ids = (body: string) => (JSON.parse(body) as { data: Array<{ id: number }> }).data.map((r) => r.id);

/**
 * The requests autocannon loops over, each connection on its own: a visit of 20 requests by a
 * signed-in client taken in turn from `fixture.sessions` — 10 reads (a lead page in a sort the
 * user picks, the next two pages by cursor, a department and name filter and its exact count, a
 * date filter, a page further on, the archived or bad tab, department statistics, and the
 * production map or, for an administrator, a rule's reports), 2 status changes each undone at
 * once (archive or mark bad 5 leads of the first page; mark new 3 of the tab), an export of 3
 * leads of the second page in csv and its download, and 4 posts of landing pages to the public
 * intake from new addresses (one in four from one address that floods it). A step whose input
 * is missing (an empty page, a failed export) reads a page instead.
 */
export function loadRequests(fixture: LoadFixture, tally: Tally): Array<autocannon.Request<Visit>> {
  let turn = 0;
  let visitor = 0;
  // Phones of this run's visitors: consecutive from a random start, so none repeats another.
  const phones = Math.floor(Math.random() * 5e7);
  const page = (v: Visit, extra: Partial<LeadListQuery> = {}, filters: LeadFilters = {}): Call => ({
    kind: 'list',
    method: 'GET',
    path: `/api/landings/data/${v.landing.id}?${leadListSearchParams({ ...v.query, ...extra }, filters)}`,
  });
  const sameCategory = (v: Visit) => fixture.landings.filter((l) => l.category === v.landing.category).map((l) => l.id);

  const firstPage: Step = {
    call(v) {
      v.session = fixture.sessions[turn++ % fixture.sessions.length]!;
      v.landing = pick(fixture.landings);
      v.query = { entry_status: 'new', _limit: 150, ...pick(SORTS) };
      return page(v);
    },
    read(body, v) {
      v.page1 = ids(body);
      v.cursor = (JSON.parse(body) as { next_cursor: string | null }).next_cursor;
    },
  };
  const nextPage: Step = {
    call: (v) => page(v, v.cursor ? { _cursor: v.cursor } : {}),
    read(body, v) {
      v.page2 ??= ids(body);
      v.cursor = (JSON.parse(body) as { next_cursor: string | null }).next_cursor;
    },
  };
  const filtered: Step = {
    call(v) {
      v.filters = { values: { departement: pick(DEPARTMENTS) }, contains: { nom: pick(SYLLABLES) } };
      return page(v, {}, v.filters);
    },
  };
  const count: Step = {
    call: (v) => ({
      kind: 'count',
      method: 'GET',
      path: `/api/landings/data/${v.landing.id}/count?${leadListSearchParams({ entry_status: 'new' }, v.filters)}`,
    }),
  };
  const sale: Step = {
    call: (v) =>
      v.page2?.length
        ? {
            kind: 'export',
            method: 'POST',
            path: `/api/landings/data/${v.landing.id}/export`,
            body: { bookType: 'csv', filename: 'charge', leads: sample(v.page2, 3), from_status: 'new', for_customer: `Charge ${fixture.tag}` },
          }
        : page(v),
    read(body, v) {
      if (v.kind !== 'export') return;
      const { data } = JSON.parse(body) as { data: { url: string; token: string; count: number } };
      v.exported = { url: data.url, token: data.token };
      tally.exports.set(data.token, data.count);
    },
  };
  const download: Step = {
    call: (v) => (v.exported ? { kind: 'download', method: 'GET', path: v.exported.url } : page(v)),
    read(body, v) {
      if (v.kind !== 'download' || !v.exported) return;
      const rows = Papa.parse<string[]>(body.replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: true }).data;
      tally.files.set(
        v.exported.token,
        rows.slice(1).map((r) => Number(r[0])),
      );
    },
  };
  const tab: Step = {
    call(v) {
      v.tab = pick(['archived', 'trashed'] as const);
      return page(v, { entry_status: v.tab, _sort: 'created_at', _order: 'desc' });
    },
    read: (body, v) => void (v.tabIds = ids(body)),
  };
  const departmentStats: Step = {
    call: (v) => ({
      kind: 'stats',
      method: 'GET',
      path: `/api/landings/data/departement/${v.landing.id}/${pick(['production', 'stock', 'production_extracted'])}/${day(-365)}/${day(0)}/0`,
    }),
  };
  const mapOrReports: Step = {
    call: (v) =>
      v.session.admin && fixture.ruleIds.length
        ? { kind: 'reports', method: 'GET', path: `/api/rapports/rules/${pick(fixture.ruleIds)}` }
        : {
            kind: 'stats',
            method: 'POST',
            path: `/api/productions/${v.landing.category}/regions/data?${new URLSearchParams({ date_range: `${day(-90)}<>${day(0)}`, landings: sameCategory(v).join(','), departement: 'FR-30,FR-34' })}`,
          },
  };
  const intake = (flood: boolean): Step => ({
    call() {
      const landing = pick(fixture.landings);
      const n = ++visitor;
      return {
        kind: 'intake',
        method: 'POST',
        path: `/api/intake/${landing.key}`,
        body: intakeForm(landing, phones + n, fixture.tag),
        from: flood ? FLOODER : visitorAddress(n),
      };
    },
  });

  // Landing-page posts come in all along, between a user's clicks.
  const steps: Step[] = [
    firstPage,
    intake(false),
    nextPage,
    ...statusChangeAndUndo((v) =>
      v.page1?.length ? { entry_status: pick(['archived', 'trashed'] as const), from_status: 'new', leads: sample(v.page1, 5) } : null,
    ),
    intake(true),
    nextPage,
    filtered,
    count,
    sale,
    download,
    intake(false),
    { call: (v) => page(v, { _sort: 'created_at', _order: 'desc' }, { dates: { created_at: `${day(-90)}<>` } }) },
    tab,
    ...statusChangeAndUndo((v) => (v.tabIds?.length ? { entry_status: 'new', from_status: v.tab, leads: sample(v.tabIds, 3) } : null)),
    intake(false),
    departmentStats,
    mapOrReports,
    { call: (v) => page(v, { _offset: 150 * Math.floor(Math.random() * 5) }) },
  ];

  function statusChangeAndUndo(body: (v: Visit) => object | null): Step[] {
    return [
      {
        call(v) {
          const b = body(v);
          v.action = undefined;
          return b ? { kind: 'status', method: 'POST', path: '/api/landings/data', body: b } : page(v);
        },
        read(text, v) {
          if (v.kind === 'status') v.action = (JSON.parse(text) as { data: { action_id: number } }).data.action_id;
        },
      },
      { call: (v) => (v.action ? { kind: 'undo', method: 'POST', path: `/api/landings/data/undo/${v.action}` } : page(v)) },
    ];
  }

  return steps.map((step) => ({
    setupRequest(request, v) {
      if (tally.closed) {
        v.kind = undefined;
        tally.settle();
        return { ...request, method: 'GET', path: '/api/health', headers: { ...request.headers }, body: undefined };
      }
      const call = step.call(v);
      tally.sent();
      v.kind = call.kind;
      v.from = call.from;
      v.sentAt = performance.now();
      const headers: Record<string, string> = { ...request.headers };
      if (call.from) headers['x-forwarded-for'] = call.from;
      else headers.authorization = `Bearer ${v.session.token}`;
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      return { ...request, method: call.method, path: call.path, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) };
    },
    onResponse(status, body, v) {
      if (!v.kind) return;
      tally.record(v.kind, status, performance.now() - v.sentAt, body);
      if (v.kind === 'intake' && status === 201) {
        tally.accepted++;
        if (v.from === FLOODER) tally.flooderAccepted++;
      }
      try {
        if (status < 300 && step.read) step.read(body, v);
      } catch (err) {
        tally.unexpected.push({ kind: v.kind, status, body: `unreadable answer: ${(err as Error).message}` });
      }
      tally.settle();
    },
  }));
}

/** A new visitor's address for each intake, in 127.0.0.0/8 (the server trusts X-Forwarded-For). */
const visitorAddress = (n: number) => `127.${100 + ((n >> 16) & 127)}.${(n >> 8) & 255}.${n & 255}`;

/** A valid form for the landing's columns; the phone and email are visitor `n`'s own. */
function intakeForm(landing: LoadLanding, n: number, tag: string): Record<string, string | number> {
  const form: Record<string, string | number> = { source: pick(['taboola', 'google', 'facebook', 'outbrain']), utm_campaign: tag };
  for (const c of landing.columns) {
    form[c.key] =
      c.type === 'phone'
        ? `07${String(n).padStart(8, '0')}`
        : c.type === 'email'
          ? `${tag}-${n}@exemple.fr`
          : c.type === 'postal_code'
            ? pick(POSTAL_CODES)
            : c.type === 'number'
              ? 120
              : c.type === 'date'
                ? '1958-04-12'
                : c.type === 'select'
                  ? pick(c.options ?? ['Oui'])
                  : 'Essai';
  }
  return form;
}
