import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

/** A dismissable wide dialog with its title: the help overlay and the error log. */
export function WideDialog(p: { open: boolean; onClose: () => void; title: string; className?: string; children: ReactNode }) {
  return (
    <ModalOverlay isOpen={p.open} onOpenChange={(open) => !open && p.onClose()} isDismissable className="overlay">
      <Modal className="dialog dialog-wide">
        <Dialog className={p.className ? `dialog-body ${p.className}` : 'dialog-body'}>
          <Heading slot="title" className="dialog-title">
            {p.title}
          </Heading>
          {p.children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
