import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { RuleSimulation as Simulation } from '../../api/rules/contract';
import { simulateRule } from '../../api/rules/requests';
import { useIntl, useT } from '../../i18n/provider';
import { formatCents } from '../../shared/money';
import { SIMULATION_DEBOUNCE_MS, simulationRequest, takenFromOthers } from './ruleSimulation';
import { useLandingColumns } from './RuleAdvanced';
import { formOf, ruleEdit } from './store';

/** The answer to the request `key` (its JSON): the simulation, or null when it failed. */
type Answer = { key: string; result: Simulation | null };

/**
 * What the rule being typed would have taken over the last 30 days (POST /customers/rules/simulate),
 * asked once the typing pauses; a request made stale by a later change is cancelled. Announced
 * politely; the detail (rules it takes from, days) in a disclosure.
 */
export function RuleSimulation({ mode }: { mode: 'create' | 'edit' }) {
  const t = useT();
  const intl = useIntl();
  // Subscribed to the form's changes; the request is built from the live draft, as the commands read it.
  useSnapshot(formOf(mode));
  const { id: editing } = useSnapshot(ruleEdit);
  const landings = useLandingColumns();
  const request = simulationRequest(formOf(mode).draft, landings, mode === 'edit' ? editing : null);
  const key = request ? JSON.stringify(request) : null;
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    if (key === null) return;
    const stale = new AbortController();
    const timer = setTimeout(() => {
      simulateRule(JSON.parse(key), stale.signal).then(
        (result) => setAnswer({ key, result }),
        () => !stale.signal.aborted && setAnswer({ key, result: null }),
      );
    }, SIMULATION_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      stale.abort();
    };
  }, [key]);

  // An answer to an earlier draft is stale: the line waits for the current one.
  const current = key !== null && answer?.key === key ? answer : null;
  const line =
    key === null
      ? t('rules.simulation.incomplete')
      : current === null
        ? t('rules.simulation.pending')
        : current.result === null
          ? t('rules.simulation.failed')
          : t('rules.simulation.summary', { days: current.result.days, taken: current.result.taken, from: takenFromOthers(current.result) });

  const idPrefix = mode === 'create' ? 'rule-simulation' : 'rule-edit-simulation';
  return (
    <section className="rule-simulation" aria-labelledby={`${idPrefix}-title`}>
      <h3 id={`${idPrefix}-title`} className="rule-simulation-title">
        {t('rules.simulation.title')}
      </h3>
      <div aria-live="polite" aria-atomic="true" className="rule-simulation-line">
        {line}
      </div>
      {current?.result ? <Detail result={current.result} locale={intl.locale} /> : null}
    </section>
  );
}

function Detail({ result, locale }: { result: Simulation; locale: string }) {
  const t = useT();
  const delta = result.revenue_delta_cents;
  return (
    <details className="rule-simulation-detail">
      <summary>{t('rules.simulation.detail')}</summary>
      <p>{t('rules.simulation.unsold', { before: result.unsold_before, after: result.unsold_after, considered: result.leads_considered })}</p>
      <p>{t('rules.simulation.revenue', { delta: `${delta > 0 ? '+' : ''}${formatCents(delta, locale)}` })}</p>
      <h4>{t('rules.simulation.takenFrom')}</h4>
      {result.taken_from.length === 0 ? (
        <p>{t('rules.simulation.takenFrom.none')}</p>
      ) : (
        <ul className="rule-simulation-from">
          {result.taken_from.map((f) => (
            <li key={f.rule.id}>{t('rules.simulation.takenFrom.item', { rule: f.rule.name, customer: f.customer.name, count: f.leads })}</li>
          ))}
        </ul>
      )}
      <table className="rule-simulation-days">
        <caption>{t('rules.simulation.byDay')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('rules.simulation.byDay.date')}</th>
            <th scope="col">{t('rules.simulation.byDay.taken')}</th>
            <th scope="col">{t('rules.simulation.byDay.full')}</th>
          </tr>
        </thead>
        <tbody>
          {result.by_day.map((d) => (
            <tr key={d.date}>
              <td>{new Date(`${d.date}T12:00:00Z`).toLocaleDateString(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })}</td>
              <td>{d.taken}</td>
              <td>{d.cap_reached_at ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
