import { Shortcut } from '../../commands/Shortcut';
import { useT } from '../../i18n/provider';

/** '/': no content of its own (SPEC.md §2), only the ways in. */
export default function HomeScreen() {
  const t = useT();
  return (
    <section className="home" aria-labelledby="home-title">
      <h1 id="home-title" className="visually-hidden">
        {t('shell.screen.home')}
      </h1>
      <p className="home-hint">
        {t('shell.home.palette')} <Shortcut keys="mod+k" />
      </p>
      <p className="home-hint">
        {t('shell.home.help')} <Shortcut keys="?" />
      </p>
    </section>
  );
}
