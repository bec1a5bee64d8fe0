import { useRef, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { productionView, selectionColors } from './store';

const steps: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

/**
 * The colour given to the selection: one radio group (one Tab stop, on the chosen colour or the
 * first; the arrows choose the next), the six colours then 'Retirer la couleur'. Nothing is
 * checked until the user chooses: selecting departments then leaves their colours alone.
 */
export function ColorChoice() {
  const t = useT();
  const { color } = useSnapshot(productionView);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const choices = [
    ...selectionColors.map((c) => ({ value: c.color, label: t(`production.color.${c.id}`), swatch: c.color })),
    { value: 'none', label: t('production.color.none'), swatch: null },
  ];
  const checked = choices.findIndex((c) => c.value === color);
  const choose = (i: number) => void runCommand('production.color', { color: choices[i].value === 'none' ? null : choices[i].value }, 'button');
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const step = steps[e.key];
    if (!step || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    const next = step(i, choices.length);
    buttons.current[next]?.focus();
    choose(next);
  };
  return (
    <div className="production-colors" role="radiogroup" aria-label={t('production.color')}>
      {choices.map((c, i) => (
        <button
          key={c.value}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          role="radio"
          aria-checked={i === checked}
          tabIndex={i === Math.max(checked, 0) ? 0 : -1}
          aria-label={c.swatch ? c.label : undefined}
          title={c.swatch ? c.label : undefined}
          className={c.swatch ? 'production-swatch' : 'btn production-nocolor'}
          style={c.swatch ? { background: c.swatch } : undefined}
          onClick={() => choose(i)}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          {c.swatch ? null : c.label}
        </button>
      ))}
    </div>
  );
}
