import { memo, useState } from 'react';
import { Select, type Key } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import type { Landing } from '../../api/landings/contract';
import type { ProductionCategory } from '../../api/productions/contract';
import { CommandMenu } from '../../commands/CommandMenu';
import { useT } from '../../i18n/provider';
import { DateRange } from '../../ui/DateRange';
import { SelectMenu } from '../../ui/SelectMenu';
import { ColorChoice } from './ColorChoice';
import { productionView } from './store';

interface Props {
  category: ProductionCategory;
  landings: readonly Landing[];
  chosen: readonly number[];
}

/**
 * The period, the landings of the category, the colour given to the selection and the screen's actions.
 * Memoised, as are the tables: the map screen renders again as each of its queries answers.
 */
export const ProductionControls = memo(function ProductionControls({ category, landings, chosen }: Props) {
  const t = useT();
  const view = useSnapshot(productionView);
  const [value, setValue] = useState<Key[] | null>(null);
  const apply = () => {
    if (value === null) return;
    productionView.landings[category] = value.map(Number).sort((a, b) => a - b);
    setValue(null);
  };
  return (
    <div className="production-controls">
      <DateRange
        labels={[t('production.start'), t('production.end')]}
        start={view.start}
        end={view.end}
        required
        names={['start', 'end']}
        onChange={(start, end) => Object.assign(productionView, { start, end })}
      />
      <Select
        className="field field-compact production-landings"
        selectionMode="multiple"
        placeholder={t('production.landings.none')}
        value={value ?? [...chosen]}
        onChange={(keys) => setValue(keys as Key[])}
        onOpenChange={(open) => !open && apply()}
      >
        <SelectMenu label={t('production.landings')} items={landings} />
      </Select>
      <ColorChoice />
      <CommandMenu menu="production.actions" variant="toolbar" label={t('production.actions')} />
    </div>
  );
});
