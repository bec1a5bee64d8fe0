import { useSnapshot } from 'valtio';
import type { RuleFill } from '../../api/rules/contract';
import { useT } from '../../i18n/provider';
import { ruleFills } from './store';

/**
 * Today's fill of a rule: leads delivered against its cap, as a bar and as numbers. It follows
 * the polled fills (ruleFills) by itself, so a delivery redraws the bars, not the grid's rows.
 */
export function FillBar({ ruleId, initial }: { ruleId: number; initial: RuleFill }) {
  const t = useT();
  const fills = useSnapshot(ruleFills);
  const { count, leads_number } = fills.byId[ruleId] ?? initial;
  const ratio = leads_number > 0 ? Math.min(1, count / leads_number) : 0;
  const tone = ratio >= 1 ? 'full' : ratio >= 0.5 ? 'half' : 'low';
  return (
    <span className="fill" title={t('rules.fill.title', { count, cap: leads_number })}>
      <span className={`fill-bar fill-${tone}`} aria-hidden="true">
        <span className="fill-done" style={{ width: `${ratio * 100}%` }} />
      </span>
      <span className="fill-text" data-fill={ruleId}>
        {count} / {leads_number}
      </span>
    </span>
  );
}
