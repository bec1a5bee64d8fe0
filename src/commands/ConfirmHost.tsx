import { useEffect, useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../i18n/provider';
import { setConfirmer, type ConfirmText } from './registry';

interface Pending extends ConfirmText {
  resolve: (ok: boolean) => void;
}

/** The confirmation asked by commands that declare `confirm` (a react-aria alert dialog). */
export function ConfirmHost() {
  const t = useT();
  const [pending, setPending] = useState<Pending | null>(null);
  useEffect(() => {
    setConfirmer((text) => new Promise<boolean>((resolve) => setPending({ ...text, resolve })));
    return () => setConfirmer(async () => false);
  }, []);
  const answer = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  return (
    <ModalOverlay isOpen={pending !== null} onOpenChange={(open) => !open && answer(false)} isDismissable className="overlay">
      <Modal className="dialog dialog-small">
        <Dialog role="alertdialog" className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {pending?.title ?? t('commands.confirm.title')}
          </Heading>
          <p>{pending?.message}</p>
          <div className="dialog-actions">
            <Button className="btn" onPress={() => answer(false)} autoFocus>
              {t('commands.confirm.cancel')}
            </Button>
            <Button className="btn btn-danger" onPress={() => answer(true)}>
              {pending?.ok ?? t('commands.confirm.ok')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
