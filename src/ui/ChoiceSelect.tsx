import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, type Key } from 'react-aria-components';
import { useT } from '../i18n/provider';

export interface Choice {
  id: Key;
  name: string;
}

interface Common {
  label: string;
  /** Shown when nothing is chosen ('Toutes les landings'). */
  placeholder: string;
  items: readonly Choice[];
  className?: string;
  isDisabled?: boolean;
  /** The choices are still on their way: the list opens anyway, saying so, and fills when they come. */
  loading?: boolean;
  /** For tests and commands that focus the field (`[data-field=…] button`). */
  field?: string;
}

/** A react-aria select of one choice (an account, a campaign, a user). */
export function SingleSelect(p: Common & { value: Key | null; onChange: (value: Key | null) => void }) {
  return (
    <Select
      className={p.className ?? 'field field-compact'}
      placeholder={p.placeholder}
      value={p.value}
      onChange={(k) => p.onChange(k ?? null)}
      isDisabled={p.isDisabled}
      allowsEmptyCollection={p.loading}
      data-field={p.field}
    >
      <Inside {...p} />
    </Select>
  );
}

/** A react-aria select of several choices (landings, statuses); none chosen means all. */
export function MultiSelect(p: Common & { value: readonly Key[]; onChange: (value: Key[]) => void }) {
  return (
    <Select
      className={p.className ?? 'field field-compact'}
      selectionMode="multiple"
      placeholder={p.placeholder}
      value={[...p.value]}
      onChange={(keys) => p.onChange([...keys])}
      isDisabled={p.isDisabled}
      allowsEmptyCollection={p.loading}
      data-field={p.field}
    >
      <Inside {...p} />
    </Select>
  );
}

/**
 * The list's content while its choices load. A react-aria select refuses to open on an empty list,
 * so a click or a key before the choices came was lost; with `allowsEmptyCollection` it opens on this.
 */
export function LoadingChoices() {
  const t = useT();
  return <div className="menu-item muted">{t('select.loading')}</div>;
}

function Inside({ label, items, loading }: Common) {
  return (
    <>
      <Label>{label}</Label>
      <Button className="btn admin-select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu-list" items={items} renderEmptyState={loading ? () => <LoadingChoices /> : undefined}>
          {(item) => (
            <ListBoxItem className="menu-item" id={item.id} textValue={item.name}>
              {item.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </>
  );
}
