import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { CommandButton } from '../../commands/CommandButton';
import { useT } from '../../i18n/provider';
import { leadView } from './store';

/** How long the last status change offers its Annuler button (z keeps working after). */
const UNDO_BAR_MS = 10_000;

/** The undo toast: the last status change and its Annuler button. */
export function UndoBar() {
  const t = useT();
  const { lastAction } = useSnapshot(leadView);
  useEffect(() => {
    if (!lastAction) return;
    const timer = setTimeout(() => {
      if (leadView.lastAction?.actionId === lastAction.actionId) leadView.lastAction = null;
    }, UNDO_BAR_MS);
    return () => clearTimeout(timer);
  }, [lastAction]);
  if (!lastAction) return null;
  return (
    <div className="leads-undo" role="status">
      <span>{t(lastAction.done, { count: lastAction.count })}</span>
      <CommandButton command="leads.undo" className="btn leads-undo-button">
        {t('leads.undo.button')}
      </CommandButton>
    </div>
  );
}
