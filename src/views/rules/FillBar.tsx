import { useSnapshot } from 'valtio';
import type { Rule, RuleFill, RuleSold } from '../../api/rules/contract';
import { useT } from '../../i18n/provider';
import { ruleFills } from './store';

/**
 * A rule's fill: today's leads against the day's cap as a bar, then each window as numbers,
 * 'hour · day · week · month' ('3/5 h · 18/20 j · 70/100 sem.'), the day always, the other windows
 * when capped. It follows the polled fills (ruleFills) by itself, so a delivery redraws the bars,
 * not the grid's rows.
 */
export function FillBar({ ruleId, initial, initialSold, caps }: { ruleId: number; initial: RuleFill; initialSold: RuleSold; caps: Rule['caps'] }) {
  const t = useT();
  const fills = useSnapshot(ruleFills);
  const polled = fills.byId[ruleId];
  const { count, leads_number } = polled ?? initial;
  const sold = polled?.sold ?? initialSold;
  const ratio = leads_number > 0 ? Math.min(1, count / leads_number) : 0;
  const tone = ratio >= 1 ? 'full' : ratio >= 0.5 ? 'half' : 'low';
  const windows = [
    caps.hour === null ? null : t('rules.fill.hour', { count: sold.hour ?? 0, cap: caps.hour }),
    t('rules.fill.day', { count, cap: leads_number }),
    caps.week === null ? null : t('rules.fill.week', { count: sold.week ?? 0, cap: caps.week }),
    caps.month === null ? null : t('rules.fill.month', { count: sold.month ?? 0, cap: caps.month }),
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
