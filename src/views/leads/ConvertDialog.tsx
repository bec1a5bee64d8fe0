import { useRef, useState } from 'react';
import { Autocomplete, Button, Dialog, Heading, Input, Label, ListBox, ListBoxItem, Modal, ModalOverlay, SearchField, useFilter } from 'react-aria-components';
import { useAllLandings } from '../../api/landings/hooks';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { leadView } from './store';

/**
 * 'Convertir les leads sélectionnés': a search field over the target landings. Typing part of a
 * name puts the first match under the cursor and Enter converts to it (c, a few letters, Enter);
 * with the mouse, a click chooses and Confirmer converts.
 */
export function ConvertDialog({ exclude }: { exclude: readonly number[] }) {
  const t = useT();
  const all = useAllLandings();
  // Accents and case do not matter: "panneaux" finds "Panneaux Solaires", "eau" finds "PAC Air-Eau".
  const { contains } = useFilter({ sensitivity: 'base' });
  const [landing, setLanding] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const pointing = useRef(false);
  const targets = (all.data ?? []).filter((l) => !exclude.includes(l.id));
  const close = () => (leadView.convertOpen = false);
  const convert = async (id: number | null) => {
    if (id === null || busy) return;
    setBusy(true);
    await runCommand('leads.convertTo', { landing: id }, 'button');
    setBusy(false);
  };
  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog dialog-small">
        <Dialog className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {t('leads.convert.title')}
          </Heading>
          <Autocomplete filter={contains}>
            <SearchField className="field field-compact convert-search" autoFocus aria-describedby="convert-hint">
              <Label>{t('leads.convert.landing')}</Label>
              <Input className="leads-input" placeholder={t('leads.convert.choose')} />
            </SearchField>
            <p id="convert-hint" className="convert-hint">
              {t('leads.convert.hint')}
            </p>
            {/* A click chooses (Confirmer converts); Enter on the match under the cursor converts at once. */}
            <div onPointerDownCapture={() => (pointing.current = true)}>
              <ListBox
                className="menu-list convert-list"
                aria-label={t('leads.convert.landing')}
                items={targets}
                selectionMode="single"
                selectedKeys={landing === null ? [] : [landing]}
                onSelectionChange={(keys) => {
                  const id = keys === 'all' ? null : ((keys.values().next().value as number | undefined) ?? null);
                  setLanding(id);
                  if (!pointing.current) void convert(id);
                  pointing.current = false;
                }}
                renderEmptyState={() => <span className="menu-empty">{t('leads.convert.none')}</span>}
              >
                {(l) => (
                  <ListBoxItem className="menu-item" id={l.id} textValue={l.name}>
                    {l.name}
                  </ListBoxItem>
                )}
              </ListBox>
            </div>
          </Autocomplete>
          <div className="dialog-actions">
            <Button className="btn" onPress={close}>
              {t('leads.convert.cancel')}
            </Button>
            <Button className="btn btn-primary" isDisabled={landing === null || busy} onPress={() => void convert(landing)}>
              {t('leads.convert.confirm')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
