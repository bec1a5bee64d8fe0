import { Button } from 'react-aria-components';

/** A dialog form's buttons: cancel, then its submit, which waits while the form is sent. */
export function FormActions({
  cancel,
  submit,
  onCancel,
  busy,
  danger = false,
}: {
  cancel: string;
  submit: string;
  onCancel: () => void;
  busy: boolean;
  danger?: boolean;
}) {
  return (
    <div className="dialog-actions">
      <Button className="btn" onPress={onCancel}>
        {cancel}
      </Button>
      <Button type="submit" className={danger ? 'btn btn-danger' : 'btn btn-primary'} isDisabled={busy}>
        {submit}
      </Button>
    </div>
  );
}
