import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useT } from '../../i18n/provider';
import { RuleForm } from './RuleForm';
import { ruleEdit } from './store';

/** 'Modifier la règle': the creation's form on the rule, saved by rules.save (PATCH); Escape or Annuler leaves it unchanged. */
export function RuleEditDialog() {
  const t = useT();
  const { id } = useSnapshot(ruleEdit);
  const close = () => (ruleEdit.id = null);
  return (
    <ModalOverlay isOpen={id !== null} onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog dialog-medium">
        <Dialog className="dialog-body" aria-labelledby="rule-edit-title">
          <Heading slot="title" id="rule-edit-title" className="dialog-title">
            {t('rules.edit.title')}
          </Heading>
          {id !== null ? <RuleForm mode="edit" onCancel={close} /> : null}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
