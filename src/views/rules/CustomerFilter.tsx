import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover, useFilter, type Key } from 'react-aria-components';
import { useCustomers } from '../../api/customers/hooks';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';

/**
 * The clearable customer filter of 'Règles': choosing a customer opens /customers/rules/:id,
 * 'Tous les clients' or the clear button /customers/rules/0. Typing filters the names, accents
 * and case aside; `f` puts the cursor here.
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
      <ComboBox
        className="lives-combo"
        items={items}
        defaultFilter={contains}
        selectedKey={customers.data ? customerId : null}
        onSelectionChange={choose}
        menuTrigger="focus"
      >
        <Label>{t('rules.filter.label')}</Label>
        <div className="lives-combo-input">
          <Input placeholder={t('rules.allCustomers')} />
          <Button className="lives-combo-button" aria-label={t('rules.filter.show')}>
            ▾
          </Button>
        </div>
        <Popover className="popover">
          <ListBox className="menu-list lives-combo-list" renderEmptyState={() => <div className="menu-item muted">{t('rules.filter.none')}</div>}>
            {(item: { id: number; name: string }) => (
              <ListBoxItem className="menu-item" id={item.id} textValue={item.name}>
                {item.name}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      {customerId !== 0 ? (
        <Button className="btn lives-clear" onPress={() => void runCommand('rules.allCustomers', undefined, 'button')} aria-label={t('rules.filter.clear')}>
          ×
        </Button>
      ) : null}
    </div>
  );
}
