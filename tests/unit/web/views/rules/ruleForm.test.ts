// The rule form's logic (docs/product.md §5): defaults, checks before sending, the server's refusals on
// their fields, the reset after a creation that keeps the customer, postal codes and hours as typed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ruleCreateRequest, ruleUpdateRequest, weekdays, type Rule } from '../../../../../src/api/rules/contract';
import {
  addZip,
  afterCreate,
  checkRule,
  draftOf,
  normalizeHour,
  parseZip,
  ruleDefaults,
  serverErrors,
  spansMidnight,
  type RuleDraft,
} from '../../../../../src/views/rules/ruleForm';
import type { FilterDraft } from '../../../../../src/views/rules/ruleAdvanced';

const allDays = Object.fromEntries(weekdays.map((d) => [d, true])) as RuleDraft['days'];

/** A draft the server takes: customer 4, landing 2, every day. */
const valid = (over: Partial<RuleDraft> = {}): RuleDraft => ({ ...ruleDefaults(4), name: 'Gard matin', landings: [2], days: allDays, ...over });

describe('rule form defaults', () => {
  it('start at 20 leads a day, 00:00–23:59, everywhere, no landing and no day, for the customer given', () => {
    const d = ruleDefaults(7);
    expect(d).toMatchObject({ customer_id: 7, name: '', landings: [], zip: [], zipInput: '', start: '00:00', end: '23:59', leads_number: '20', active: true });
    expect(weekdays.every((day) => d.days[day] === false)).toBe(true);
    expect(ruleDefaults(null).customer_id).toBeNull();
  });

  it('come back after a creation, keeping only the customer', () => {
    const used = valid({ zip: ['30'], zipInput: '34', start: '08:00', end: '20:00', leads_number: '150' });
    expect(afterCreate(used)).toEqual(ruleDefaults(4));
    expect(afterCreate({ ...used, customer_id: 9 }).customer_id).toBe(9);
  });
});

describe('checkRule', () => {
  it('refuses an empty form field by field', () => {
    const { errors, payload } = checkRule(ruleDefaults(null));
    expect(payload).toBeNull();
    expect(errors).toEqual({
      customer_id: 'rules.form.error.customer',
      name: 'rules.form.error.name',
      landings: 'rules.form.error.landings',
      days: 'rules.form.error.days',
    });
  });

  it('builds the creation payload the contract accepts, with the codes still being typed', () => {
    const { errors, payload } = checkRule(valid({ name: '  Gard matin ', zip: ['30'], zipInput: '34000 2a', start: '8', end: '20h30', leads_number: ' 150 ' }));
    expect(errors).toEqual({});
    expect(payload).toEqual({
      name: 'Gard matin',
      customer_id: 4,
      landings: [2],
      zip: ['30', '34000', '2A'],
      hours: { start: '08:00', end: '20:30' },
      leads_number: 150,
      active: true,
      ...allDays,
      price_cents: null,
      caps: { hour: null, week: null, month: null },
      priority: 5,
      weight: null,
      filters: [],
      exclusive: true,
    });
    expect(ruleCreateRequest.safeParse(payload).success).toBe(true);
  });

  it('takes leads per day from 1 to 10,000 only, whole numbers', () => {
    for (const n of ['1', '20', '10000']) expect(checkRule(valid({ leads_number: n })).errors).toEqual({});
    for (const n of ['0', '10001', '-3', '2.5', '', 'abc', '1e3'])
      expect(checkRule(valid({ leads_number: n })).errors.leads_number).toBe('rules.form.error.leadsNumber');
  });

  it('refuses hours that are not HH:mm and codes that are neither postal codes nor departments', () => {
    expect(checkRule(valid({ start: '24:00' })).errors).toEqual({ hours: 'rules.form.error.hours' });
    expect(checkRule(valid({ end: 'midi' })).errors).toEqual({ hours: 'rules.form.error.hours' });
    expect(checkRule(valid({ zipInput: '30 3000' })).errors).toEqual({ zip: 'rules.form.error.zip' });
  });

  it('never gives a payload the contract refuses (any draft)', () => {
    const draft = fc.record({
      customer_id: fc.option(fc.integer({ min: -2, max: 50 }), { nil: null }),
      name: fc.string({ maxLength: 30 }),
      landings: fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 3 }),
      zip: fc.array(fc.constantFrom('30', '34000', '2A', '971'), { maxLength: 3 }),
      zipInput: fc.string({ maxLength: 12 }),
      start: fc.string({ maxLength: 6 }),
      end: fc.constantFrom('23:59', '06:00', '7', 'x'),
      leads_number: fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 20_000 }).map(String)),
      days: fc.record(Object.fromEntries(weekdays.map((d) => [d, fc.boolean()])) as Record<(typeof weekdays)[number], fc.Arbitrary<boolean>>),
      active: fc.boolean(),
      price: fc.constantFrom('', '0', '12,50', '1000000', '1000000,01', '-1', 'x'),
      advanced: fc.record({
        caps: fc.record({ hour: fc.constantFrom('', '0', '5', 'x'), week: fc.constantFrom('', '70', '1000001'), month: fc.constantFrom('', '250') }),
        priority: fc.constantFrom('1', '5', '9', '0', '10', ''),
        weight: fc.constantFrom('', '1', '10000', '10001', 'lourd'),
        filters: fc.constant([] as FilterDraft[]),
        exclusive: fc.boolean(),
      }),
    });
    fc.assert(
      fc.property(draft, (d) => {
        const { errors, payload } = checkRule(d);
        if (payload) expect(ruleCreateRequest.safeParse(payload).success).toBe(true);
        else expect(Object.keys(errors).length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('editing a rule in the creation form', () => {
  const rule: Rule = {
    id: 12,
    name: 'Gard soir',
    customer_id: 4,
    customer_name: 'Acme',
    customer_active: true,
    landings: [
      { id: 2, name: 'PAC' },
      { id: 5, name: 'PV' },
    ],
    zip: ['30', '34000'],
    hours: { start: '22:00', end: '06:00' },
    leads_number: 35,
    ...Object.fromEntries(weekdays.map((d, i) => [d, i < 5])),
    active: false,
    caps: { hour: null, week: 100, month: null },
    priority: 3,
    weight: 40,
    filters: [{ column: 'utm_source', op: 'in', value: ['google', 'bing'] }],
    exclusive: false,
    price_cents: 1990,
    today: { count: 3, leads_number: 35 },
    sold: { hour: 0, week: 10, month: 10 },
    created_at: '2026-01-01T00:00:00Z',
  } as Rule;

  it('reads a rule into the form, and the unchanged form gives back the rule as the PATCH takes it', () => {
    const draft = draftOf(rule);
    expect(draft).toMatchObject({
      customer_id: 4,
      name: 'Gard soir',
      landings: [2, 5],
      zip: ['30', '34000'],
      zipInput: '',
      start: '22:00',
      end: '06:00',
      leads_number: '35',
      active: false,
    });
    expect(draft.days).toEqual({ monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false });
    const { errors, payload } = checkRule(draft);
    expect(errors).toEqual({});
    expect(ruleUpdateRequest.parse(payload)).toEqual({
      name: 'Gard soir',
      customer_id: 4,
      landings: [2, 5],
      zip: ['30', '34000'],
      hours: { start: '22:00', end: '06:00' },
      leads_number: 35,
      active: false,
      ...Object.fromEntries(weekdays.map((d, i) => [d, i < 5])),
      price_cents: 1990,
      caps: { hour: null, week: 100, month: null },
      priority: 3,
      weight: 40,
      filters: [{ column: 'utm_source', op: 'in', value: ['google', 'bing'] }],
      exclusive: false,
    });
  });

  it('reads a price in euros into cents, empty as the customer’s default, and refuses what is not an amount', () => {
    expect(draftOf(rule).price).toMatch(/^19[.,]90$/);
    expect(checkRule(valid({ price: '12,5' })).payload?.price_cents).toBe(1250);
    expect(checkRule(valid({ price: ' ' })).payload?.price_cents).toBeNull();
    for (const price of ['-1', 'douze', '1000000,01']) expect(checkRule(valid({ price })).errors).toEqual({ price_cents: 'rules.form.error.price' });
    expect(serverErrors({ price_cents: 'Prix du lead en centimes…' }).errors).toEqual({ price_cents: 'rules.form.error.price' });
  });

  it('keeps the rule apart from the draft: editing the draft changes nothing of the rule', () => {
    const draft = draftOf(rule);
    draft.zip.push('2A');
    draft.days.sunday = true;
    expect(rule.zip).toEqual(['30', '34000']);
    expect(rule.sunday).toBe(false);
  });
});

describe('postal codes and hours as typed', () => {
  it('splits on spaces, commas, semicolons and lines, upper-cases departments, keeps the refused as typed', () => {
    expect(parseZip('30000, 34;2a\n971  9x9 123')).toEqual({ entries: ['30000', '34', '2A', '971'], invalid: ['9x9', '123'] });
    expect(parseZip('  ')).toEqual({ entries: [], invalid: [] });
    expect(addZip(['30', '34000'], ['34000', '2B'])).toEqual(['30', '34000', '2B']);
  });

  it('reads hours as HH:mm when it can, and tells a window across midnight', () => {
    expect(['8', '08', '830', '0830', '8:5', '20h30', ' 7:45 '].map(normalizeHour)).toEqual(['08:00', '08:00', '08:30', '08:30', '08:05', '20:30', '07:45']);
    expect(['24', '8:60', 'midi', ''].map(normalizeHour)).toEqual(['24', '8:60', 'midi', '']);
    expect(spansMidnight('22:00', '06:00')).toBe(true);
    expect(spansMidnight('00:00', '23:59')).toBe(false);
    expect(spansMidnight('22:00', 'x')).toBe(false);
  });
});

describe('serverErrors', () => {
  it('puts each refused path of a 422 on its field', () => {
    expect(
      serverErrors({ 'zip.3': 'x', 'hours.start': 'x', monday: 'x', customer_id: 'x', landings: 'x', leads_number: 'x', name: 'x', _: 'x' }).errors,
    ).toEqual({
      zip: 'rules.form.error.zip',
      hours: 'rules.form.error.hours',
      days: 'rules.form.error.days',
      customer_id: 'rules.form.error.customer',
      landings: 'rules.form.error.landings',
      leads_number: 'rules.form.error.leadsNumber',
      name: 'rules.form.error.name',
    });
  });
});
