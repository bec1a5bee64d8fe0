import { useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay, Select } from 'react-aria-components';
import { SelectMenu } from './SelectMenu';
import { useAllLandings } from '../../api/landings/hooks';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { leadView } from './store';

/** 'Convertir les leads sélectionnés': choose the target landing, then Confirmer or Annuler. */
export function ConvertDialog({ exclude }: { exclude: readonly number[] }) {
  const t = useT();
  const all = useAllLandings();
  const [landing, setLanding] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const targets = (all.data ?? []).filter((l) => !exclude.includes(l.id));
  const close = () => (leadView.convertOpen = false);
  const confirm = async () => {
    if (landing === null) return;
    setBusy(true);
    await runCommand('leads.convertTo', { landing }, 'button');
    setBusy(false);
  };
  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog dialog-small">
        <Dialog className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {t('leads.convert.title')}
          </Heading>
          <Select
            className="leads-field leads-select"
            selectedKey={landing}
            onSelectionChange={(key) => setLanding(key === null ? null : Number(key))}
            placeholder={t('leads.convert.choose')}
            autoFocus
          >
            <SelectMenu label={t('leads.convert.landing')} items={targets} />
          </Select>
          <div className="dialog-actions">
            <Button className="btn" onPress={close}>
              {t('leads.convert.cancel')}
            </Button>
            <Button className="btn btn-primary" isDisabled={landing === null || busy} onPress={() => void confirm()}>
              {t('leads.convert.confirm')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
