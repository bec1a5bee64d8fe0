import { Button, Label, ListBox, ListBoxItem, Popover, SelectValue } from 'react-aria-components';
import { LoadingChoices } from './ChoiceSelect';
import './SelectMenu.css';

/**
 * The inside of a landing <Select>: its label, the button showing the choice, and the list. While
 * `loading`, the list says so (the <Select> then needs `allowsEmptyCollection` to open on it).
 */
export function SelectMenu({ label, items, loading }: { label: string; items: readonly { id: number; name: string }[]; loading?: boolean }) {
  return (
    <>
      <Label>{label}</Label>
      <Button className="btn leads-select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu-list" items={items} renderEmptyState={loading ? () => <LoadingChoices /> : undefined}>
          {(l) => (
            <ListBoxItem className="menu-item" id={l.id}>
              {l.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </>
  );
}
