import { getCommand } from '../../commands/registry';
import { Shortcut } from '../../commands/Shortcut';
import { useT } from '../../i18n/provider';

const keyOf = (id: string) => getCommand(id)?.keys?.[0] ?? '';

/** '/': no content of its own (docs/product.md §2), only the ways in. */
export default function HomeScreen() {
  const t = useT();
  return (
    <section className="home" aria-labelledby="home-title">
      <h1 id="home-title" className="visually-hidden">
        {t('shell.screen.home')}
      </h1>
      <p className="home-hint">
        {t('shell.home.palette')} <Shortcut keys={keyOf('shell.palette')} />
      </p>
      <p className="home-hint">
        {t('shell.home.help')} <Shortcut keys={keyOf('shell.help')} />
      </p>
    </section>
  );
}
