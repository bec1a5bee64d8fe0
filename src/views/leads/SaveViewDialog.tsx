import type { FormEvent } from 'react';
import { Checkbox, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { viewDialog } from './savedViews';
import { FormActions } from '../../ui/FormActions';

/**
 * 'Enregistrer la vue' and 'Renommer la vue': the view's name and whether everyone sees it. Enter
 * saves, Escape or Annuler closes; the focus goes back where it was (react-aria's modal).
 */
export function SaveViewDialog() {
  const t = useT();
  const state = useSnapshot(viewDialog);
  const close = () => (viewDialog.open = false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void runCommand('views.submit', undefined, 'button');
  };
  const title = t(state.id === null ? 'views.save' : 'views.rename');
  return (
    <ModalOverlay isOpen={state.open} onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog">
        <Dialog className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <form className="form" onSubmit={submit} noValidate aria-label={title}>
            <div className="field">
              <label htmlFor="view-name">{t('views.dialog.name')}</label>
              <input
                id="view-name"
                autoFocus
                autoComplete="off"
                maxLength={80}
                value={state.name}
                aria-invalid={state.error ? true : undefined}
                aria-describedby={state.error ? 'view-name-error' : undefined}
                onChange={(e) => {
                  viewDialog.name = e.target.value;
                  viewDialog.error = '';
                }}
              />
              {state.error ? (
                <span id="view-name-error" className="field-error">
                  {state.error}
                </span>
              ) : null}
            </div>
            <div className="field">
              <Checkbox className="check" isSelected={state.shared} onChange={(shared) => (viewDialog.shared = shared)}>
                <span className="check-box" aria-hidden="true" />
                {t('views.dialog.shared')}
              </Checkbox>
            </div>
            <FormActions cancel={t('views.dialog.cancel')} submit={t('views.dialog.save')} onCancel={close} busy={state.busy} />
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
