import { useSnapshot } from 'valtio';
import { CommandButton } from '../../commands/CommandButton';
import { useT } from '../../i18n/provider';
import { dismissNotice, leadView } from './store';

/**
 * The list's live news (issue 28): how many leads arrived, with the command that shows them, and
 * what others did to the listed leads ('Archivés par Marie'), each closed by its button.
 */
export function LiveBar({ onDone }: { onDone: () => void }) {
  const t = useT();
  const { arrived, notices } = useSnapshot(leadView);
  const dismiss = (key: number) => {
    dismissNotice(key);
    // The button pressed goes away with its notice: the keys go back to the list.
    onDone();
  };
  return (
    <div className="leads-live" role="status">
      {arrived > 0 ? (
        <p className="leads-arrived">
          <span>{t('leads.live.arrived', { count: arrived })}</span>
          {' — '}
          <CommandButton command="leads.showNew" className="btn btn-link leads-arrived-show">
            {t('leads.live.show')}
          </CommandButton>
        </p>
      ) : null}
      {notices.map((n) => (
        <p key={n.key} className="leads-notice">
          <span>
            {t(`leads.live.gone.${n.to}`, { count: n.count, name: n.by ?? t('leads.live.nobody') })}
            {n.unselected > 0 ? t('leads.live.unselected', { count: n.unselected }) : ''}
          </span>
          <button type="button" className="icon-btn leads-notice-close" aria-label={t('leads.live.dismiss')} onClick={() => dismiss(n.key)}>
            ×
          </button>
        </p>
      ))}
    </div>
  );
}
