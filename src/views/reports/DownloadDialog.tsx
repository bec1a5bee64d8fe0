import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { bookType, type BookType } from '../../api/leads/contract';
import { runCommand } from '../../commands/registry';
import { useIntl, useT } from '../../i18n/provider';
import { reportDownload } from './store';
import { FormActions } from '../../ui/FormActions';

/** 'Souhaitez-vous télécharger le rapport ?': the format (pdf first), then the file named by the report's date. */
export function DownloadDialog() {
  const t = useT();
  const intl = useIntl();
  const { report, format, busy } = useSnapshot(reportDownload);
  const close = () => (reportDownload.report = null);
  const day = report ? intl.formatDate(`${report.date}T12:00:00`, { dateStyle: 'long' }) : '';
  return (
    <ModalOverlay isOpen={report !== null} onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog dialog-small">
        <Dialog className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {t('reports.download.title', { date: day })}
          </Heading>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (report) void runCommand('reports.downloadAs', { reportId: report.id, format }, 'button');
            }}
          >
            <p>{t('reports.download.confirm')}</p>
            <div className="field">
              <label htmlFor="report-format">{t('reports.download.format')}</label>
              <select
                id="report-format"
                className="reports-format"
                value={format}
                autoFocus
                onChange={(e) => (reportDownload.format = e.target.value as BookType)}
                // A select does not send its form on Enter: here it does (d, Enter downloads a pdf; d, c, Enter a csv).
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    e.currentTarget.form?.requestSubmit();
                  }
                }}
              >
                {bookType.options.map((f) => (
                  <option key={f} value={f}>
                    {f.toUpperCase()}
                  </option>
                ))}
              </select>
            </div>
            <FormActions cancel={t('reports.download.cancel')} submit={t('reports.download.ok')} onCancel={close} busy={busy} />
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
