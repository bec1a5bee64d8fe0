import {
  Autocomplete,
  Button,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  SearchField,
  Select,
  SelectValue,
  useFilter,
  type Key,
} from 'react-aria-components';
import { useCustomers } from '../../api/customers/hooks';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';

/**
 * The clearable customer filter of 'Règles': a select whose list has its own search field (typing
 * filters the names, accents and case aside). Choosing a customer opens /customers/rules/:id,
 * 'Tous les clients' or the clear button /customers/rules/0. `f` puts the focus here.
 */
export function CustomerFilter({ customerId }: { customerId: number }) {
  const t = useT();
  const customers = useCustomers();
  const { contains } = useFilter({ sensitivity: 'base' });
  const items = [{ id: 0, name: t('rules.allCustomers') }, ...(customers.data ?? []).map((c) => ({ id: c.id, name: c.name }))];
  const choose = (key: Key | null) => {
    const id = key === null ? 0 : Number(key);
    if (id !== customerId) void runCommand('nav.rules', { customerId: id }, 'button');
  };
  return (
    <div className="lives-filter" data-rules-filter="">
      {/* 'Tous les clients' is shown at once; a customer's name once the customers are known. */}
      <Select className="lives-select" value={customers.data || customerId === 0 ? customerId : null} placeholder={t('select.loading')} onChange={choose}>
        <Label className="lives-label">{t('rules.filter.label')}</Label>
        <Button className="btn lives-select-button">
          <SelectValue className="lives-select-value" />
          <span aria-hidden="true">▾</span>
        </Button>
        <Popover className="popover lives-select-popover lives-search-popover">
          <Autocomplete filter={contains}>
            <SearchField className="lives-search" aria-label={t('rules.filter.search')} autoFocus>
              <Input placeholder={t('rules.filter.search')} />
            </SearchField>
            <ListBox
              className="menu-list lives-combo-list"
              items={items}
              renderEmptyState={() => <div className="menu-item muted">{t('rules.filter.none')}</div>}
            >
              {(item) => (
                <ListBoxItem className="menu-item" id={item.id} textValue={item.name}>
                  {item.name}
                </ListBoxItem>
              )}
            </ListBox>
          </Autocomplete>
        </Popover>
      </Select>
      {customerId !== 0 ? (
        <Button className="btn lives-clear" onPress={() => void runCommand('rules.allCustomers', undefined, 'button')} aria-label={t('rules.filter.clear')}>
          ×
        </Button>
      ) : null}
    </div>
  );
}
