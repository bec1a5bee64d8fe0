import { useRef, useState } from 'react';
import { Button, Dialog, Heading, Label, Modal, ModalOverlay, TextArea, TextField } from 'react-aria-components';
import { maxNoteLength, type DepartmentCode } from '../../api/productions/contract';
import { runCommand } from '../../commands/registry';
import { useIntl, useT } from '../../i18n/provider';
import { toaster } from '../../ui/toasts';
import { productionView } from './store';

/**
 * 'Tips': a department's note. Enregistrer saves it; closing the dialog any other way (Escape,
 * a click outside, Fermer) saves it too when it changed. The note is plain text: HTML shows as typed.
 */
export function NoteDialog({ code, name, initial }: { code: DepartmentCode; name: string; initial: string }) {
  const t = useT();
  const intl = useIntl();
  const [text, setText] = useState(initial);
  const saved = useRef(initial);
  const close = () => {
    // Too long to be saved: the dialog stays, rather than losing the text.
    if (text.length > maxNoteLength) return toaster.warning(t('production.note.tooLong'));
    if (text !== saved.current) {
      saved.current = text;
      void runCommand('production.saveNote', { code, text }, 'button');
    }
    productionView.noteFor = null;
  };
  const save = () => {
    saved.current = text;
    void runCommand('production.saveNote', { code, text }, 'button');
    productionView.noteFor = null;
  };
  const tooLong = text.length > maxNoteLength;
  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog dialog-small">
        <Dialog className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {t('production.note.title')}
          </Heading>
          <TextField className="production-note" value={text} onChange={setText} autoFocus isInvalid={tooLong}>
            <Label>{t('production.note.label', { name, code: code.slice(3) })}</Label>
            <TextArea
              rows={8}
              className="production-note-text"
              onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
            />
            <span className={tooLong ? 'production-note-count production-note-over' : 'production-note-count'} aria-live="polite">
              {t('production.note.count', { n: intl.formatNumber(text.length), max: intl.formatNumber(maxNoteLength) })}
            </span>
          </TextField>
          <div className="dialog-actions">
            <Button className="btn" onPress={close}>
              {t('production.note.close')}
            </Button>
            <Button className="btn btn-primary" isDisabled={tooLong} onPress={save}>
              {t('production.note.save')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
