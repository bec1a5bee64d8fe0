// The rule form's what-if (issue 27): the request for the draft being typed, and what the line reads of the answer. Pure, unit-tested.
import type { LandingColumn } from '../../api/landings/contract';
import type { RuleSimulateRequest, RuleSimulation } from '../../api/rules/contract';
import { checkRule, type RuleDraft } from './ruleForm';

/** The days replayed: the line reads 'Sur les 30 derniers jours'. */
export const SIMULATION_DAYS = 30;
/** Quiet time after the last keystroke before asking the server. */
export const SIMULATION_DEBOUNCE_MS = 400;

/**
 * The simulation of the draft: a new rule, or the edit of rule `editing` (the PATCH takes the
 * creation's fields); null while the form would refuse the draft (nothing to simulate yet).
 */
export function simulationRequest(
  draft: RuleDraft,
  landings: readonly { id: number; name: string; columns: readonly LandingColumn[] }[],
  editing: number | null,
): RuleSimulateRequest | null {
  const { payload } = checkRule(draft, landings);
  if (!payload) return null;
  return { rule: editing === null ? payload : { id: editing, changes: payload }, days: SIMULATION_DAYS };
}

/** The leads the draft takes from other rules (a shared lead counts once per rule it leaves). */
export const takenFromOthers = (s: RuleSimulation) => s.taken_from.reduce((n, t) => n + t.leads, 0);
