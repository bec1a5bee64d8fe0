import { useEffect, useRef } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { RETURN_COMMENT_MAX, returnReason, type LeadSale } from '../api/sales/contract';
import { runCommand } from '../commands/registry';
import { useT } from '../i18n/provider';
import { saleReturn } from './saleReturn';
import './returnSale.css';
import { FormActions } from './FormActions';

/**
 * 'Retourner la vente': the reasons as radio buttons (arrows move between them), a comment required
 * with 'Autre', then the return; a refusal (out of the window, twice, the rate) stays in the dialog.
 */
export function ReturnSaleDialog() {
  const t = useT();
  const { sale, reason, comment, busy, error } = useSnapshot(saleReturn);
  const close = () => (saleReturn.sale = null);
  const first = useRef<HTMLInputElement>(null);
  // The first reason takes the focus once the dialog has (react-aria focuses the dialog itself on opening).
  useEffect(() => {
    if (!sale) return;
    const frame = requestAnimationFrame(() => first.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [sale]);
  return (
    <ModalOverlay isOpen={sale !== null} onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog dialog-small">
        <Dialog className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {t('sales.return.title', { id: String(sale?.lead_id ?? ''), customer: sale?.customer ?? '' })}
          </Heading>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (sale && reason) void runCommand('sales.returnSend', { saleId: sale.id, reason, comment: comment.trim() || undefined }, 'button');
            }}
          >
            <fieldset className="sale-return-reasons">
              <legend>{t('sales.return.reason')}</legend>
              {returnReason.options.map((r, i) => (
                <label key={r} className="sale-return-reason">
                  <input
                    type="radio"
                    name="sale-return-reason"
                    value={r}
                    required
                    ref={i === 0 ? first : undefined}
                    checked={reason === r}
                    onChange={() => (saleReturn.reason = r)}
                  />
                  {t(`sales.return.reason.${r}`)}
                </label>
              ))}
            </fieldset>
            <div className="field">
              <label htmlFor="sale-return-comment">{t(reason === 'other' ? 'sales.return.commentRequired' : 'sales.return.comment')}</label>
              <textarea
                id="sale-return-comment"
                className="sale-return-comment"
                value={comment}
                maxLength={RETURN_COMMENT_MAX}
                required={reason === 'other'}
                aria-describedby="sale-return-hint"
                onChange={(e) => (saleReturn.comment = e.target.value)}
              />
              <p id="sale-return-hint" className="muted">
                {t('sales.return.commentHint', { max: RETURN_COMMENT_MAX })}
              </p>
            </div>
            {error ? (
              <p role="alert" className="sale-return-error">
                {error}
              </p>
            ) : null}
            <FormActions cancel={t('sales.return.cancel')} submit={t('sales.return.ok')} onCancel={close} busy={busy} danger />
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** The 'Retourner la vente' button of a sale still standing, in a sales table; its name says which lead. */
export function ReturnButton({ sale, fallback }: { sale: LeadSale; fallback: () => HTMLElement | null }) {
  const t = useT();
  return (
    <Button
      className="btn"
      aria-label={t('sales.return.of', { id: String(sale.lead_id), customer: sale.customer.name })}
      onPress={() => void runCommand('sales.return', { sale: { id: sale.id, lead_id: sale.lead_id, customer: sale.customer.name, fallback } }, 'button')}
    >
      {t('sales.return')}
    </Button>
  );
}
