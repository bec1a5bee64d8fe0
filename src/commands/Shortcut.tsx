import { Fragment } from 'react';
import { useT } from '../i18n/provider';
import { shortcutCaps } from './keys';

/**
 * A shortcut as key caps: 'g c' → G then C, 'mod+k' → Ctrl + K. Beside a command's name (a
 * button, a palette entry, which carry aria-keyshortcuts) the caps are hidden from screen readers;
 * where the keys are the content (`spoken`: the help overlay) they are one image named in words,
 * 'G puis C', and `alternative` starts it with 'ou' after the command's first shortcut.
 */
export function Shortcut({ keys, spoken = false, alternative = false }: { keys: string; spoken?: boolean; alternative?: boolean }) {
  const t = useT();
  const chords = shortcutCaps(keys, t);
  const name = `${alternative ? `${t('commands.key.or')} ` : ''}${chords.map((chord) => chord.join('+')).join(` ${t('commands.key.then')} `)}`;
  return (
    <span className="shortcut" {...(spoken ? { role: 'img', 'aria-label': name } : { 'aria-hidden': true })}>
      {chords.map((chord, i) => (
        <span key={i} className="shortcut-chord">
          {chord.map((cap) => (
            <kbd key={cap}>{cap}</kbd>
          ))}
        </span>
      ))}
    </span>
  );
}

/**
 * A command's shortcuts, told apart from one longer sequence by a slash ('A / H', 'G A / G H';
 * 'A H' reads as A then H). Spoken, they are 'A', 'ou H'.
 */
export function Shortcuts({ keys }: { keys: readonly string[] }) {
  return keys.map((k, i) => (
    <Fragment key={k}>
      {i > 0 ? (
        <span className="shortcut-or" aria-hidden="true">
          /
        </span>
      ) : null}
      <Shortcut keys={k} spoken alternative={i > 0} />
    </Fragment>
  ));
}
