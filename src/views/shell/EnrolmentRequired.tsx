import { Button } from 'react-aria-components';
import { useT } from '../../i18n/provider';
import { queryClient } from '../../api/queryClient';
import { userState } from '../../state/user';
import { runCommand } from '../../commands/registry';
import { TwoFactorPanel } from './TwoFactorPanel';

/**
 * What an account that REQUIRE_2FA asks for a second factor sees until it has one: the server
 * answers 403 enrolment_required to everything else, so no screen is mounted meanwhile.
 */
export function EnrolmentRequired() {
  const t = useT();
  const enrolled = () => {
    userState.enrolmentRequired = false;
    void queryClient.invalidateQueries({ queryKey: ['me'] });
  };
  return (
    <section className="enrolment" aria-labelledby="enrolment-title">
      <h1 id="enrolment-title">{t('twoFactor.required.title')}</h1>
      <p>{t('twoFactor.required.text')}</p>
      <TwoFactorPanel onFactor={enrolled} />
      <p>
        <Button className="btn" onPress={() => void runCommand('shell.logout')}>
          {t('shell.logout')}
        </Button>
      </p>
    </section>
  );
}
