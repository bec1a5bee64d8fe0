// The rule form's 'Avancé' section and day group as data (issue 25): the columns a filter may name
// on the chosen landings, the values as typed turned into the API's filters, the checks the server
// makes, its refusals read back, the cap warnings, and the day presets and roving keys.
import { describe, expect, it } from 'vitest';
import type { LandingColumn } from '../../../../../src/api/landings/contract';
import { ruleCreateRequest, weekdays, type RuleFilter } from '../../../../../src/api/rules/contract';
import { filterErrors, filterProblem } from '../../../../../src/api/rules/filters';
import {
  advancedDefaults,
  advancedOf,
  advancedServerErrors,
  advancedUsed,
  capWarnings,
  checkAdvanced,
  filterColumns,
  filterPayload,
  newFilter,
  withColumn,
  type FilterDraft,
} from '../../../../../src/views/rules/ruleAdvanced';
import { checkRule, daysOf, isPreset, rovingIndex, ruleDefaults } from '../../../../../src/views/rules/ruleForm';

const pac: { id: number; name: string; columns: LandingColumn[] } = {
  id: 1,
  name: 'PAC',
  columns: [
    { key: 'nom', label: 'Nom', type: 'text', required: true },
    { key: 'chauffage', label: 'Chauffage', type: 'select', required: false, options: ['Gaz', 'Fioul'] },
    { key: 'surface', label: 'Surface', type: 'number', required: false },
    { key: 'naissance', label: 'Naissance', type: 'date', required: false },
  ],
};
const pv: { id: number; name: string; columns: LandingColumn[] } = {
  id: 2,
  name: 'PV',
  columns: [
    { key: 'nom', label: 'Nom', type: 'text', required: true },
    { key: 'surface', label: 'Surface', type: 'text', required: false },
    { key: 'naissance', label: 'Naissance', type: 'date', required: false },
  ],
};
const draftOf = (over: Partial<FilterDraft>): FilterDraft => ({ column: 'nom', op: 'eq', value: '', values: [], min: '', max: '', ...over });

describe('filter columns of the chosen landings', () => {
  it("offers one landing's columns with their kind and choices, then the lead's source and UTM columns", () => {
    expect(filterColumns([pac, pv], [1])).toEqual([
      { key: 'nom', label: 'Nom', kind: 'text' },
      { key: 'chauffage', label: 'Chauffage', kind: 'text', options: ['Gaz', 'Fioul'] },
      { key: 'surface', label: 'Surface', kind: 'number' },
      { key: 'naissance', label: 'Naissance', kind: 'date' },
      { key: 'source', label: 'rules.advanced.column.source', kind: 'text' },
      { key: 'utm_source', label: 'rules.advanced.column.utm_source', kind: 'text' },
      { key: 'utm_medium', label: 'rules.advanced.column.utm_medium', kind: 'text' },
      { key: 'utm_campaign', label: 'rules.advanced.column.utm_campaign', kind: 'text' },
    ]);
  });

  it('keeps, for several landings, only the columns all have with the same kind; none before a landing is chosen', () => {
    expect(filterColumns([pac, pv], [1, 2]).map((c) => c.key)).toEqual(['nom', 'naissance', 'source', 'utm_source', 'utm_medium', 'utm_campaign']);
    expect(filterColumns([pac, pv], [])).toEqual([]);
    expect(filterColumns([pac], [9])).toEqual([]);
  });

  it("starts a filter with its kind's first operator, and keeps the operator on a new column only when it fits", () => {
    const [nom, chauffage, surface, naissance] = filterColumns([pac], [1]);
    expect(newFilter(surface!)).toEqual(draftOf({ column: 'surface', op: 'gte' }));
    expect(withColumn(draftOf({ op: 'in', value: 'x' }), chauffage!)).toEqual(draftOf({ column: 'chauffage', op: 'in' }));
    expect(withColumn(draftOf({ column: 'surface', op: 'between', min: '1', max: '2' }), naissance!)).toEqual(draftOf({ column: 'naissance', op: 'between' }));
    expect(withColumn(draftOf({ column: 'naissance', op: 'age_between' }), surface!).op).toBe('gte');
    expect(withColumn(draftOf({ column: 'surface', op: 'lte' }), nom!).op).toBe('eq');
  });
});

describe('filters as typed', () => {
  const columns = filterColumns([pac], [1]);
  const column = (key: string) => columns.find((c) => c.key === key);

  it('reads numbers in French or English, lists by commas or ticked choices, pairs, and refuses what is missing', () => {
    expect(filterPayload(draftOf({ column: 'surface', op: 'gte', value: '12,5' }), column('surface'))).toEqual({ column: 'surface', op: 'gte', value: 12.5 });
    expect(filterPayload(draftOf({ column: 'surface', op: 'between', min: '80', max: '200' }), column('surface'))).toEqual({
      column: 'surface',
      op: 'between',
      value: [80, 200],
    });
    expect(filterPayload(draftOf({ column: 'naissance', op: 'age_between', min: '30', max: '70' }), column('naissance'))!.value).toEqual([30, 70]);
    expect(filterPayload(draftOf({ column: 'naissance', op: 'gte', value: '1950-01-01' }), column('naissance'))!.value).toBe('1950-01-01');
    expect(filterPayload(draftOf({ op: 'not_in', value: ' test, essai ,, ' }), column('nom'))).toEqual({
      column: 'nom',
      op: 'not_in',
      value: ['test', 'essai'],
    });
    expect(filterPayload(draftOf({ column: 'chauffage', op: 'in', value: 'ignored', values: ['Gaz'] }), column('chauffage'))!.value).toEqual(['Gaz']);
    expect(filterPayload(draftOf({ op: 'eq', value: '  ' }), column('nom'))).toBeNull();
    expect(filterPayload(draftOf({ column: 'surface', op: 'between', min: '80' }), column('surface'))).toBeNull();
    expect(filterPayload(draftOf({ column: 'chauffage', op: 'in' }), column('chauffage'))).toBeNull();
  });

  it('checks caps, priority, weight and filters as the server does, and gives the defaults untouched', () => {
    expect(checkAdvanced(advancedDefaults(), columns, [pac])).toEqual({
      errors: {},
      badFilters: [],
      payload: { caps: { hour: null, week: null, month: null }, priority: 5, weight: null, filters: [], exclusive: true },
    });
    const bad = checkAdvanced(
      {
        caps: { hour: '0', week: '1000001', month: 'x' },
        priority: '10',
        weight: '10001',
        exclusive: false,
        filters: [
          draftOf({ value: 'Martin' }),
          draftOf({ column: 'surface', op: 'between', min: '200', max: '80' }),
          draftOf({ column: 'chauffage', op: 'eq', value: 'Bois' }),
          draftOf({ column: 'naissance', op: 'lte' }),
        ],
      },
      columns,
      [pac],
    );
    expect(bad.errors).toEqual({
      cap_hour: 'rules.form.error.cap',
      cap_week: 'rules.form.error.cap',
      cap_month: 'rules.form.error.cap',
      priority: 'rules.form.error.priority',
      weight: 'rules.form.error.weight',
      filters: 'rules.form.error.filters',
    });
    expect(bad.badFilters).toEqual([1, 2, 3]);
  });

  it('refuses in the form a filter that does not fit one of the chosen landings, like the server', () => {
    const draft = { ...ruleDefaults(4), name: 'R', landings: [1, 2], days: daysOf('every') };
    draft.advanced.filters = [draftOf({ column: 'surface', op: 'gte', value: '50' })];
    expect(checkRule(draft, [pac, pv])).toMatchObject({ errors: { filters: 'rules.form.error.filters' }, badFilters: [0], payload: null });
    const ok = checkRule({ ...draft, landings: [1] }, [pac, pv]);
    expect(ok.errors).toEqual({});
    expect(ruleCreateRequest.parse(ok.payload)).toMatchObject({ filters: [{ column: 'surface', op: 'gte', value: 50 }] });
  });

  it('reads a rule into the section and gives back the same fields, opened only when not the defaults', () => {
    const filters: RuleFilter[] = [
      { column: 'chauffage', op: 'in', value: ['Gaz'] },
      { column: 'surface', op: 'between', value: [80, 200] },
      { column: 'naissance', op: 'age_between', value: [30, 70] },
      { column: 'nom', op: 'neq', value: 'Test' },
    ];
    const rule = { caps: { hour: 5, week: null, month: 250 }, priority: 2, weight: 300, filters, exclusive: false };
    const a = advancedOf(rule);
    expect(advancedUsed(a)).toBe(true);
    expect(advancedUsed(advancedDefaults())).toBe(false);
    expect(checkAdvanced(a, columns, [pac])).toEqual({ errors: {}, badFilters: [], payload: rule });
  });

  it("puts the server's refusals on their fields and names the filters", () => {
    expect(advancedServerErrors({ 'caps.week': 'x', priority: 'x', weight: 'x', 'filters.2': 'x', 'filters.0.value': 'x', name: 'x' })).toEqual({
      errors: {
        cap_week: 'rules.form.error.cap',
        priority: 'rules.form.error.priority',
        weight: 'rules.form.error.weight',
        filters: 'rules.form.error.filters',
      },
      badFilters: [0, 2],
    });
  });

  it('warns when a week or month cap binds before the day or the week', () => {
    expect(capWarnings({ hour: '', week: '15', month: '' }, '20')).toEqual(['week']);
    expect(capWarnings({ hour: '', week: '70', month: '50' }, '20')).toEqual(['month']);
    expect(capWarnings({ hour: '', week: '', month: '10' }, '20')).toEqual(['month']);
    expect(capWarnings({ hour: '3', week: '100', month: '400' }, '20')).toEqual([]);
    expect(capWarnings({ hour: '', week: '', month: '' }, 'x')).toEqual([]);
  });
});

describe('filters against a landing (shared with the server)', () => {
  it('names the landing lacking the column, the operator that does not fit, the malformed values', () => {
    expect(filterProblem({ column: 'surface', op: 'gte', value: 50 }, pac)).toBeNull();
    expect(filterProblem({ column: 'surface', op: 'gte', value: 50 }, pv)).toContain('PV');
    expect(filterProblem({ column: 'revenu', op: 'eq', value: 'x' }, pac)).toContain('revenu');
    expect(filterProblem({ column: 'source', op: 'in', value: ['google'] }, pv)).toBeNull();
    expect(filterProblem({ column: 'source', op: 'gte', value: 'a' }, pv)).toContain('gte');
    expect(filterProblem({ column: 'naissance', op: 'between', value: ['2001-01-01', '2000-12-31'] }, pac)).toContain('inversé');
    expect(filterProblem({ column: 'naissance', op: 'gte', value: '2023-02-29' }, pac)).toContain('AAAA-MM-JJ');
    expect(filterProblem({ column: 'naissance', op: 'age_between', value: [18, 151] }, pac)).toContain('150');
    expect(filterProblem({ column: 'chauffage', op: 'eq', value: ' gaz ' }, pac)).toBeNull();
    expect(
      filterErrors(
        [
          { column: 'nom', op: 'eq', value: 'a' },
          { column: 'surface', op: 'lte', value: 1 },
        ],
        [pac, pv],
      ),
    ).toEqual({
      'filters.1': expect.stringMatching(/^Filtre 2 — .*PV/),
    });
  });
});

describe('the day group', () => {
  it('sets the presets, tells which one the days are, and walks the days with wrapping arrows, Home and End', () => {
    expect(weekdays.filter((d) => daysOf('workdays')[d])).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']);
    expect(Object.values(daysOf('every')).every(Boolean)).toBe(true);
    expect(isPreset(daysOf('workdays'), 'workdays')).toBe(true);
    expect(isPreset({ ...daysOf('workdays'), saturday: true }, 'workdays')).toBe(false);
    expect(isPreset(daysOf('every'), 'workdays')).toBe(false);
    expect([rovingIndex('ArrowRight', 6, 7), rovingIndex('ArrowDown', 2, 7), rovingIndex('ArrowLeft', 0, 7), rovingIndex('ArrowUp', 3, 7)]).toEqual([
      0, 3, 6, 2,
    ]);
    expect([rovingIndex('Home', 4, 7), rovingIndex('End', 0, 7), rovingIndex(' ', 2, 7), rovingIndex('Tab', 2, 7)]).toEqual([0, 6, null, null]);
  });
});
