import { useSnapshot } from 'valtio';
import type { Rule, RuleFill, RuleSold } from '../../api/rules/contract';
import { useIntl, useT } from '../../i18n/provider';
import { ruleFills } from './store';

/** 'plein vers 15 h 40': the forecast's Paris wall-clock time, laid out as the language writes times. */
function expectedText(t: ReturnType<typeof useT>, locale: string, hhmm: string) {
  const [hour, minute] = hhmm.split(':').map(Number);
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(1970, 0, 1, hour, minute));
  return t('rules.fill.expected', { hour, minute: hhmm.slice(3), time });
}

/**
 * A rule's fill: today's leads against the day's cap as a bar, then each window as numbers,
 * 'hour · day · week · month' ('3/5 h · 18/20 j · 70/100 sem. · plein vers 15 h 40'), the forecast when one is expected, the day always, the other windows
 * when capped. It follows the polled fills (ruleFills) by itself, so a delivery redraws the bars,
 * not the grid's rows.
 */
export function FillBar({ ruleId, initial, initialSold, caps }: { ruleId: number; initial: RuleFill; initialSold: RuleSold; caps: Rule['caps'] }) {
  const t = useT();
  const intl = useIntl();
  const fills = useSnapshot(ruleFills);
  const polled = fills.byId[ruleId];
  const { count, leads_number, expected_full_at } = polled ?? initial;
  const sold = polled?.sold ?? initialSold;
  const ratio = leads_number > 0 ? Math.min(1, count / leads_number) : 0;
  const tone = ratio >= 1 ? 'full' : ratio >= 0.5 ? 'half' : 'low';
  const windows = [
    caps.hour === null ? null : t('rules.fill.hour', { count: sold.hour ?? 0, cap: caps.hour }),
    t('rules.fill.day', { count, cap: leads_number }),
    caps.week === null ? null : t('rules.fill.week', { count: sold.week ?? 0, cap: caps.week }),
    caps.month === null ? null : t('rules.fill.month', { count: sold.month ?? 0, cap: caps.month }),
    expected_full_at === null ? null : expectedText(t, intl.locale, expected_full_at),
  ].filter(Boolean);
  return (
    <span className="fill" title={t('rules.fill.title', { count, cap: leads_number })}>
      <span className={`fill-bar fill-${tone}`} aria-hidden="true">
        <span className="fill-done" style={{ width: `${ratio * 100}%` }} />
      </span>
      <span className="fill-text" data-fill={ruleId}>
        {windows.join(' · ')}
      </span>
    </span>
  );
}
