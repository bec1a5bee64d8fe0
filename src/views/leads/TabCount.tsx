import type { IntlShape } from '@formatjs/intl';
import { useIntl } from '../../i18n/provider';

/** Counts from this one on are shown compact ('12 k', '1,2 M'): every count then fits the badge's fixed width. */
const COMPACT_FROM = 10_000;

export const tabCountText = (intl: IntlShape, count: number) =>
  count < COMPACT_FROM ? intl.formatNumber(count) : intl.formatNumber(count, { notation: 'compact' });

/**
 * A status tab's count of leads ('Nouveaux 12'), followed by the live events. The badge has a
 * fixed width from the first paint, empty until the counts arrive: neither their arrival nor their
 * changes move the tabs, nor what is under them. Drawn by CSS (`data-count`): screen readers read
 * it in the tab's name, and the tab's text stays the status's name.
 */
export function TabCount({ count }: { count: number | undefined }) {
  const intl = useIntl();
  return <span className="leads-tab-count" data-count={count === undefined ? '' : tabCountText(intl, count)} />;
}
