import { useState } from 'react';
import { Select, type Key } from 'react-aria-components';
import { SelectMenu } from '../../ui/SelectMenu';
import { useAllLandings } from '../../api/landings/hooks';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';

/** The header's multi-select of landings: closing it with another choice opens the same screen for those ids. */
export function LandingPicker({ selected }: { selected: readonly number[] }) {
  const t = useT();
  const all = useAllLandings();
  const [value, setValue] = useState<Key[]>(() => selected.map((id) => id));
  const apply = () => {
    const ids = value.map(Number).sort((a, b) => a - b);
    if (ids.length > 0 && ids.join(',') !== [...selected].sort((a, b) => a - b).join(',')) void runCommand('nav.leads', { id: ids.join(',') }, 'button');
  };
  return (
    <Select
      className="field field-compact leads-picker"
      selectionMode="multiple"
      value={value}
      onChange={(keys) => {
        if (keys.length > 0) setValue(keys);
      }}
      onOpenChange={(open) => !open && apply()}
      allowsEmptyCollection={!all.data}
    >
      <SelectMenu label={t('leads.landings.picker')} items={all.data ?? []} loading={!all.data} />
    </Select>
  );
}
