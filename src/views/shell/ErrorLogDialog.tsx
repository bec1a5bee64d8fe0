import { Button } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useIntl, useT } from '../../i18n/provider';
import { ui } from '../../state/ui';
import { WideDialog } from '../../ui/WideDialog';

/** The errors of this visit (window errors, unhandled rejections, render errors, failed commands) with their URL. */
export function ErrorLogDialog() {
  const t = useT();
  const intl = useIntl();
  const { errorLogOpen, errorLogs } = useSnapshot(ui);
  const close = () => {
    ui.errorLogOpen = false;
  };
  return (
    <WideDialog open={errorLogOpen} onClose={close} title={t('shell.errorLog.title')}>
      {errorLogs.length === 0 ? (
        <p className="muted">{t('shell.errorLog.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('shell.errorLog.time')}</th>
                <th scope="col">{t('shell.errorLog.source')}</th>
                <th scope="col">{t('shell.errorLog.message')}</th>
                <th scope="col">{t('shell.errorLog.url')}</th>
              </tr>
            </thead>
            <tbody>
              {errorLogs.map((e, i) => (
                <tr key={i}>
                  <td className="nowrap">{intl.formatTime(e.time, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}</td>
                  <td>{t(`shell.errorLog.source.${e.source}`)}</td>
                  <td>
                    <strong>{e.message}</strong>
                    {e.stack ? (
                      <details>
                        <summary>{t('shell.errorLog.stack')}</summary>
                        <pre>{e.stack}</pre>
                      </details>
                    ) : null}
                  </td>
                  <td className="break">{e.url}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="dialog-actions">
        <Button className="btn" isDisabled={errorLogs.length === 0} onPress={() => (ui.errorLogs = [])}>
          {t('shell.errorLog.clear')}
        </Button>
        <Button className="btn btn-primary" onPress={close}>
          {t('shell.close')}
        </Button>
      </div>
    </WideDialog>
  );
}
