import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useAllLandings } from '../../api/landings/hooks';
import { useUsers } from '../../api/users/hooks';
import { CommandButton } from '../../commands/CommandButton';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { MultiSelect, SingleSelect } from '../../ui/ChoiceSelect';
import { DateRange } from '../../ui/DateRange';
import { exportsView } from './store';

/** Landings, user (the route's parameter), creation dates and 'Vendu à'. */
export function FilterBar({ userId }: { userId: number }) {
  const t = useT();
  const { filters, meta } = useSnapshot(exportsView);
  const landings = useAllLandings();
  const users = useUsers();
  const userItems = [{ id: 0, name: t('exports.filter.allUsers') }, ...(users.data ?? []).map((u) => ({ id: u.id, name: u.name }))];
  return (
    <div className="admin-bar" role="search" aria-label={t('exports.filters')} data-exports-filters="">
      <MultiSelect
        label={t('exports.filter.landings')}
        placeholder={t('exports.filter.allLandings')}
        items={landings.data ?? []}
        loading={!landings.data}
        value={filters.landings}
        onChange={(keys) => (exportsView.filters.landings = keys.map(Number))}
        field="landings"
      />
      <SingleSelect
        label={t('exports.filter.user')}
        placeholder={t('exports.filter.allUsers')}
        items={userItems}
        value={userId}
        onChange={(id) => id !== null && Number(id) !== userId && void runCommand('nav.exports', { userId: Number(id) }, 'button')}
        field="user"
      />
      <DateRange
        labels={[t('exports.filter.from'), t('exports.filter.to')]}
        start={filters.start}
        end={filters.end}
        names={['created-from', 'created-to']}
        onChange={(start, end) => Object.assign(exportsView.filters, { start, end })}
      />
      <ComboBox
        className="field field-compact"
        allowsCustomValue
        menuTrigger="focus"
        inputValue={filters.forCustomer}
        onInputChange={(v) => (exportsView.filters.forCustomer = v)}
        defaultItems={meta.buyers.map((name) => ({ id: name, name }))}
      >
        <Label>{t('exports.filter.soldTo')}</Label>
        <div className="admin-combo">
          <Input placeholder={t('exports.filter.anyBuyer')} />
          <Button className="btn admin-combo-button" aria-label={t('exports.filter.showBuyers')}>
            ▾
          </Button>
        </div>
        <Popover className="popover">
          <ListBox className="menu-list" renderEmptyState={() => <div className="menu-item muted">{t('exports.filter.noBuyers')}</div>}>
            {(item: { id: string; name: string }) => (
              <ListBoxItem className="menu-item" id={item.id}>
                {item.name}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      <CommandButton command="exports.clearFilters" />
    </div>
  );
}
