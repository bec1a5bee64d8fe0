import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';

interface Props {
  label: string;
  placeholder: string;
  /** Accessible name of the button that opens the list. */
  showLabel: string;
  /** Shown in the open list when there is nothing to suggest. */
  emptyLabel: string;
  value: string;
  onChange: (value: string) => void;
  /** Earlier values, offered as suggestions; any other text may be typed. */
  suggestions: readonly string[];
}

/** A text field with suggestions that also takes a new value: 'Vendu à', the import's source. */
export function FreeEntryCombo({ label, placeholder, showLabel, emptyLabel, value, onChange, suggestions }: Props) {
  return (
    <ComboBox
      className="field field-compact leads-combo"
      allowsCustomValue
      menuTrigger="focus"
      inputValue={value}
      onInputChange={onChange}
      defaultItems={suggestions.map((name) => ({ id: name, name }))}
    >
      <Label>{label}</Label>
      <div className="leads-combo-input">
        <Input placeholder={placeholder} />
        <Button className="leads-combo-button" aria-label={showLabel}>
          ▾
        </Button>
      </div>
      <Popover className="popover">
        <ListBox className="menu-list" renderEmptyState={() => <div className="menu-item muted">{emptyLabel}</div>}>
          {(item: { id: string; name: string }) => (
            <ListBoxItem className="menu-item" id={item.id}>
              {item.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
