// The rule form's what-if (issue 27): the request made of the draft being typed, and its line in each language.
import { describe, expect, it } from 'vitest';
import { weekdays, type RuleSimulation } from '../../../../../src/api/rules/contract';
import { loadMessages, makeIntl, translator } from '../../../../../src/i18n';
import { ruleDefaults, type RuleDraft } from '../../../../../src/views/rules/ruleForm';
import { simulationRequest, takenFromOthers } from '../../../../../src/views/rules/ruleSimulation';

const allDays = Object.fromEntries(weekdays.map((d) => [d, true])) as RuleDraft['days'];
const draft: RuleDraft = { ...ruleDefaults(4), name: 'Gard matin', landings: [2], days: allDays, zip: ['30'], leads_number: '12' };

describe('simulationRequest', () => {
  it('asks nothing while the form would refuse the draft', () => {
    expect(simulationRequest({ ...draft, name: ' ' }, [], null)).toBeNull();
    expect(simulationRequest({ ...draft, days: ruleDefaults(4).days }, [], null)).toBeNull();
  });

  it('sends a new rule as its creation payload, an edited one as `{ id, changes }`, over 30 days', () => {
    const created = simulationRequest(draft, [], null);
    expect(created).toMatchObject({ days: 30, rule: { name: 'Gard matin', customer_id: 4, landings: [2], zip: ['30'], leads_number: 12 } });
    expect(simulationRequest(draft, [], 9)).toEqual({ days: 30, rule: { id: 9, changes: created!.rule } });
  });
});

describe('the simulation line', () => {
  const result = (taken: number, from: number[]): RuleSimulation => ({
    days: 30,
    leads_considered: 500,
    taken,
    by_day: [],
    taken_from: from.map((leads, i) => ({ rule: { id: i, name: `R${i}` }, customer: { id: i, name: `C${i}` }, leads })),
    unsold_before: 0,
    unsold_after: 0,
    revenue_delta_cents: 0,
  });
  const line = async (language: 'fr' | 'en', r: RuleSimulation) =>
    translator(makeIntl(language, await loadMessages(language)))('rules.simulation.summary', { days: r.days, taken: r.taken, from: takenFromOthers(r) });

  it("reads 'Sur les 30 derniers jours : 412 leads, dont 118 pris à d'autres règles', singular for one", async () => {
    expect(await line('fr', result(412, [100, 18]))).toMatch(/^Sur les 30 derniers jours\s:\s412 leads, dont 118 pris à d'autres règles$/);
    expect(await line('fr', result(1, []))).toMatch(/^Sur les 30 derniers jours\s:\s1 lead, dont 0 pris à d'autres règles$/);
    expect(await line('en', result(1, [1]))).toBe('Over the last 30 days: 1 lead, 1 taken from other rules');
  });
});
