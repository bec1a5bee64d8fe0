// The 'Créer une règle' form as data (docs/product.md §5): its defaults, its checks before sending, the
// server's refusals read back onto its fields, and the reset after a rule is created. Pure, unit-tested.
import type { LandingColumn } from '../../api/landings/contract';
import { weekdays, zipEntry, type Rule, type RuleCreateRequest, type Weekday } from '../../api/rules/contract';
import { centsToInput, parseEuros } from '../../shared/money';
import { ui } from '../../state/ui';
import { advancedDefaults, advancedOf, advancedServerErrors, checkAdvanced, filterColumns, type AdvancedDraft, type AdvancedField } from './ruleAdvanced';

export interface RuleDraft {
  customer_id: number | null;
  name: string;
  landings: number[];
  /** Postal codes and departments, upper-case, each once; empty means everywhere. */
  zip: string[];
  /** What is being typed in the postal codes field, not yet added. */
  zipInput: string;
  start: string;
  end: string;
  /** As typed: the number field may hold anything while the user types. */
  leads_number: string;
  days: Record<Weekday, boolean>;
  /** False: the rule is kept but delivers nothing (paused). */
  active: boolean;
  /** The price of each lead it sells, in euros as typed; empty: the customer's default price. */
  price: string;
  /** The 'Avancé' section: caps per window, priority, weight, filters, exclusivity. */
  advanced: AdvancedDraft;
}

export type RuleField = 'customer_id' | 'name' | 'landings' | 'zip' | 'hours' | 'leads_number' | 'days' | 'price_cents' | AdvancedField;

/** i18n ids of the message each field shows when refused. */
export type RuleErrors = Partial<Record<RuleField, string>>;

export const LEADS_PER_DAY = { min: 1, max: 10_000, default: 20 } as const;
export const DEFAULT_HOURS = { start: '00:00', end: '23:59' } as const;
/** 1 000 000 €, the contract's highest price. */
const MAX_PRICE_CENTS = 100_000_000;

/** The defaults of docs/product.md §5: 20 leads a day, 00:00–23:59, everywhere, no landing, no day; active. */
export function ruleDefaults(customerId: number | null): RuleDraft {
  return {
    customer_id: customerId,
    name: '',
    landings: [],
    zip: [],
    zipInput: '',
    start: DEFAULT_HOURS.start,
    end: DEFAULT_HOURS.end,
    leads_number: String(LEADS_PER_DAY.default),
    days: Object.fromEntries(weekdays.map((d) => [d, false])) as Record<Weekday, boolean>,
    active: true,
    price: '',
    advanced: advancedDefaults(),
  };
}

/** A rule as the form edits it ('Modifier la règle'): the same fields as a creation. */
export function draftOf(rule: Rule): RuleDraft {
  return {
    customer_id: rule.customer_id,
    name: rule.name,
    landings: rule.landings.map((l) => l.id),
    zip: [...rule.zip],
    zipInput: '',
    start: rule.hours.start,
    end: rule.hours.end,
    leads_number: String(rule.leads_number),
    days: Object.fromEntries(weekdays.map((d) => [d, rule[d]])) as Record<Weekday, boolean>,
    active: rule.active,
    price: centsToInput(rule.price_cents, ui.language),
    advanced: advancedOf(rule),
  };
}

/** After a rule is created the form starts again from its defaults, for the same customer. */
export const afterCreate = (draft: RuleDraft): RuleDraft => ruleDefaults(draft.customer_id);

/**
 * Codes typed or pasted, separated by spaces, commas, semicolons or lines ('30000, 34 2a'):
 * the valid ones upper-case (postal codes or departments), and those refused as typed.
 */
export function parseZip(text: string): { entries: string[]; invalid: string[] } {
  const entries: string[] = [];
  const invalid: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    if (!part) continue;
    const parsed = zipEntry.safeParse(part);
    if (parsed.success) entries.push(parsed.data);
    else invalid.push(part);
  }
  return { entries, invalid };
}

/** Adds codes to a list, each once, in the order typed. */
export const addZip = (list: readonly string[], entries: readonly string[]) => [...new Set([...list, ...entries])];

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * An hour as typed, read as HH:mm when it can be: '8' → '08:00', '830' → '08:30', '8:5' →
 * '08:05', '20h30' → '20:30'; anything else stays as typed (and is refused by checkRule).
 */
export function normalizeHour(text: string): string {
  const t = text.trim().toLowerCase().replace('h', ':');
  const m = /^(\d{1,2})(?::(\d{1,2})?)?$/.exec(t) ?? /^(\d{1,2})(\d{2})$/.exec(t);
  if (!m) return text.trim();
  const hh = Number(m[1]);
  const mm = Number(m[2] ?? 0);
  return hh <= 23 && mm <= 59 ? `${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}` : text.trim();
}

/** A window whose end comes before its start runs past midnight (22:00–06:00). */
export const spansMidnight = (start: string, end: string) => hhmm.test(start) && hhmm.test(end) && end < start;

/** The day presets of the day group: 'Lun–Ven' and 'Tous les jours'. */
export const dayPresets = {
  workdays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
  every: weekdays,
} as const satisfies Record<string, readonly Weekday[]>;
export type DayPreset = keyof typeof dayPresets;

/** The days of a preset, all others off. */
export const daysOf = (preset: DayPreset): Record<Weekday, boolean> =>
  Object.fromEntries(weekdays.map((d) => [d, (dayPresets[preset] as readonly Weekday[]).includes(d)])) as Record<Weekday, boolean>;

/** Whether the days are exactly those of a preset (its button shows pressed). */
export const isPreset = (days: Readonly<Record<Weekday, boolean>>, preset: DayPreset) => weekdays.every((d) => days[d] === daysOf(preset)[d]);

/**
 * Roving focus in the day group: the index an arrow key, Home or End moves to from `index` among
 * `count` (wrapping), or null for any other key.
 */
export function rovingIndex(key: string, index: number, count: number): number | null {
  if (key === 'ArrowRight' || key === 'ArrowDown') return (index + 1) % count;
  if (key === 'ArrowLeft' || key === 'ArrowUp') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * Checks the draft as the server will: the refused fields (i18n ids), the filters refused
 * (indexes), or the payload — of a creation, or of an edit (PATCH takes the same fields). Codes
 * still in the postal codes field count as typed. With the landings' columns, a filter that does
 * not fit one of the chosen landings is refused here already.
 */
export function checkRule(
  draft: RuleDraft,
  landings: readonly { id: number; name: string; columns: readonly LandingColumn[] }[] = [],
): { errors: RuleErrors; badFilters: number[]; payload: RuleCreateRequest | null } {
  const chosen = landings.filter((l) => draft.landings.includes(l.id));
  const advanced = checkAdvanced(draft.advanced, filterColumns(landings, draft.landings), chosen);
  const errors: RuleErrors = { ...advanced.errors };
  if (!draft.customer_id) errors.customer_id = 'rules.form.error.customer';
  if (!draft.name.trim()) errors.name = 'rules.form.error.name';
  if (draft.landings.length === 0) errors.landings = 'rules.form.error.landings';
  const pending = parseZip(draft.zipInput);
  if (pending.invalid.length) errors.zip = 'rules.form.error.zip';
  const start = normalizeHour(draft.start);
  const end = normalizeHour(draft.end);
  if (!hhmm.test(start) || !hhmm.test(end)) errors.hours = 'rules.form.error.hours';
  const n = /^\d+$/.test(draft.leads_number.trim()) ? Number(draft.leads_number) : NaN;
  if (!(n >= LEADS_PER_DAY.min && n <= LEADS_PER_DAY.max)) errors.leads_number = 'rules.form.error.leadsNumber';
  // A rule without a day would never deliver: the form asks for at least one.
  if (!weekdays.some((d) => draft.days[d])) errors.days = 'rules.form.error.days';
  const price = parseEuros(draft.price);
  if (price !== null && !(price <= MAX_PRICE_CENTS)) errors.price_cents = 'rules.form.error.price';
  if (Object.keys(errors).length) return { errors, badFilters: advanced.badFilters, payload: null };
  return {
    errors,
    badFilters: [],
    payload: {
      name: draft.name.trim(),
      customer_id: draft.customer_id!,
      landings: draft.landings,
      zip: addZip(draft.zip, pending.entries),
      hours: { start, end },
      leads_number: n,
      active: draft.active,
      ...draft.days,
      price_cents: price,
      ...advanced.payload,
    },
  };
}

/** The server's 422 `errors` ('zip.3', 'hours.start', 'monday', 'caps.week', 'filters.1'…) on the form's fields, and the filters named. */
export function serverErrors(errors: Readonly<Record<string, string>>): { errors: RuleErrors; badFilters: number[] } {
  const advanced = advancedServerErrors(errors);
  const out: RuleErrors = { ...advanced.errors };
  for (const path of Object.keys(errors)) {
    const head = path.split('.')[0];
    if (head === 'customer_id') out.customer_id = 'rules.form.error.customer';
    else if (head === 'name') out.name = 'rules.form.error.name';
    else if (head === 'landings') out.landings = 'rules.form.error.landings';
    else if (head === 'zip') out.zip = 'rules.form.error.zip';
    else if (head === 'hours') out.hours = 'rules.form.error.hours';
    else if (head === 'leads_number') out.leads_number = 'rules.form.error.leadsNumber';
    else if (head === 'price_cents') out.price_cents = 'rules.form.error.price';
    else if ((weekdays as readonly string[]).includes(head)) out.days = 'rules.form.error.days';
  }
  return { errors: out, badFilters: advanced.badFilters };
}
