import { Button, Label, ListBox, ListBoxItem, Popover, SelectValue } from 'react-aria-components';
import './SelectMenu.css';

/** The inside of a landing <Select>: its label, the button showing the choice, and the list. */
export function SelectMenu({ label, items }: { label: string; items: readonly { id: number; name: string }[] }) {
  return (
    <>
      <Label>{label}</Label>
      <Button className="btn leads-select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu-list" items={items}>
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
