import { useSnapshot } from 'valtio';
import { useT } from '../../i18n/provider';
import { ui } from '../../state/ui';
import { WideDialog } from '../../ui/WideDialog';
import { TwoFactorPanel } from './TwoFactorPanel';

/** 'Double authentification' of the account menu: the account's factors. */
export function TwoFactorDialog() {
  const t = useT();
  const { twoFactorOpen } = useSnapshot(ui);
  const close = () => {
    ui.twoFactorOpen = false;
  };
  return (
    <WideDialog open={twoFactorOpen} onClose={close} title={t('twoFactor.title')}>
      <p className="muted">{t('twoFactor.intro')}</p>
      {twoFactorOpen ? <TwoFactorPanel /> : null}
    </WideDialog>
  );
}
