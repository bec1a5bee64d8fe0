import { useState } from 'react';
import { Button, Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import { useAllLandings } from '../../api/landings/hooks';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';

/** Landings tab: the landings to show together; at least one stays checked. */
export function LandingsTab({ selected }: { selected: readonly number[] }) {
  const t = useT();
  const all = useAllLandings();
  const [value, setValue] = useState(() => selected.map(String));
  return (
    <div className="leads-landings">
      <CheckboxGroup
        className="leads-checkgroup"
        value={value}
        onChange={(next) => {
          if (next.length > 0) setValue(next);
        }}
      >
        <Label>{t('leads.landings.label')}</Label>
        <div className="leads-checklist">
          {(all.data ?? []).map((l) => (
            <Checkbox key={l.id} value={String(l.id)} className="leads-checkbox" isDisabled={value.length === 1 && value[0] === String(l.id)}>
              <span className="leads-checkbox-box" aria-hidden="true" />
              {l.name}
            </Checkbox>
          ))}
        </div>
        <p className="muted">{t('leads.landings.atLeastOne')}</p>
      </CheckboxGroup>
      <Button className="btn btn-primary" onPress={() => void runCommand('nav.leads', { id: value.join(',') }, 'button')}>
        {t('leads.landings.show')}
      </Button>
    </div>
  );
}
