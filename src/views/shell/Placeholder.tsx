import { useT } from '../../i18n/provider';

/** What a screen not built yet shows: its name and the work that will bring it. */
export function Placeholder({ title, work }: { title: string; work: string }) {
  const t = useT();
  return (
    <section className="placeholder" aria-labelledby="placeholder-title">
      <h1 id="placeholder-title">{t(title)}</h1>
      <p>{t('shell.placeholder.text', { work: t(work) })}</p>
    </section>
  );
}
