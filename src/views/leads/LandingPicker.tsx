import { useState } from 'react';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, type Key } from 'react-aria-components';
import { useAllLandings } from '../../api/hooks/leads';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';

/** The header's multi-select of landings: closing it with another choice opens the same screen for those ids. */
export function LandingPicker({ selected }: { selected: readonly number[] }) {
  const t = useT();
  const all = useAllLandings();
  const [value, setValue] = useState<Key[]>(() => selected.map((id) => id));
  const apply = () => {
    const ids = value.map(Number).sort((a, b) => a - b);
    if (ids.length > 0 && ids.join(',') !== [...selected].sort((a, b) => a - b).join(',')) void runCommand('nav.landing', { id: ids.join(',') }, 'button');
  };
  return (
    <Select
      className="leads-field leads-picker"
      selectionMode="multiple"
      value={value}
      onChange={(keys) => {
        if (keys.length > 0) setValue(keys);
      }}
      onOpenChange={(open) => !open && apply()}
    >
      <Label>{t('leads.landings.picker')}</Label>
      <Button className="btn leads-select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="menu-list" items={all.data ?? []}>
          {(l) => (
            <ListBoxItem className="menu-item" id={l.id}>
              {l.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
