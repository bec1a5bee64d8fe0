import { useT } from '../i18n/provider';
import { shortcutCaps } from './keys';

/** A shortcut as key caps: 'g c' → G then C, 'mod+k' → Ctrl + K. */
export function Shortcut({ keys }: { keys: string }) {
  const t = useT();
  return (
    <span className="shortcut" aria-hidden="true">
      {shortcutCaps(keys, t).map((chord, i) => (
        <span key={i} className="shortcut-chord">
          {chord.map((cap) => (
            <kbd key={cap}>{cap}</kbd>
          ))}
        </span>
      ))}
    </span>
  );
}
