import { useSyncExternalStore } from 'react';
import { useT } from '../i18n/provider';
import { continuations, pendingStrokes, subscribePending } from './hotkeys';
import { Shortcut, Shortcuts } from './Shortcut';

/** While a sequence is under way ('g' typed), lists where each next key leads. */
export function SequenceHint() {
  const t = useT();
  const strokes = useSyncExternalStore(subscribePending, pendingStrokes);
  if (strokes.length === 0) return null;
  const next = continuations(strokes);
  return (
    <div className="sequence-hint" role="status">
      <span className="sequence-typed">
        <Shortcut keys={strokes.map((s) => s.key).join(' ')} /> …
      </span>
      <ul>
        {next.map(({ command, rests }) => (
          <li key={command.id}>
            <span className="sequence-keys">
              <Shortcuts keys={rests} />
            </span>
            <span>{t(command.title)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
