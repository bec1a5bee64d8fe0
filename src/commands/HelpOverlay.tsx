import { Button } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useT } from '../i18n/provider';
import { ui } from '../state/ui';
import { WideDialog } from '../ui/WideDialog';
import { useCommandContext } from './context';
import { allCommands, isAvailable, isPermitted } from './registry';
import { Shortcuts } from './Shortcut';

/**
 * The `?` overlay: every command this user may run, by section, with its keys when it has some;
 * those that apply elsewhere (another screen, no selection) are marked as such. The current
 * screen's section comes first.
 */
export function HelpOverlay() {
  const { helpOpen } = useSnapshot(ui);
  const t = useT();
  const ctx = useCommandContext();
  const bySection = new Map<string, { id: string; title: string; keys: readonly string[]; here: boolean }[]>();
  if (helpOpen) {
    for (const c of allCommands()) {
      if (!isPermitted(c, ctx.user)) continue;
      const list = bySection.get(c.section) ?? [];
      list.push({ id: c.id, title: t(c.title), keys: c.keys ?? [], here: isAvailable(c, ctx) });
      bySection.set(c.section, list);
    }
  }
  // Opened on the current screen's section: it comes first (the exports' keys on the exports).
  const sections = [...bySection].sort(([a], [b]) => Number(b === ctx.view) - Number(a === ctx.view));
  const close = () => {
    ui.helpOpen = false;
  };
  return (
    <WideDialog open={helpOpen} onClose={close} title={t('commands.help.title')} className="help">
      <div className="help-sections">
        {sections.map(([section, commands]) => (
          <section key={section} className="help-section">
            <h3>{t(`commands.section.${section}`)}</h3>
            <dl>
              {commands.map((c) => (
                <div key={c.id} className={c.here ? 'help-row' : 'help-row help-row-elsewhere'} data-command={c.id}>
                  <dt>
                    {c.title}
                    {c.here ? null : <span className="visually-hidden"> ({t('commands.help.elsewhere')})</span>}
                  </dt>
                  <dd>
                    <Shortcuts keys={c.keys} />
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <p className="help-note">{t('commands.help.note')}</p>
      <div className="dialog-actions">
        <Button className="btn" onPress={close}>
          {t('commands.help.close')}
        </Button>
      </div>
    </WideDialog>
  );
}
