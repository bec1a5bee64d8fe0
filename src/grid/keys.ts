// Keys of the grid, matched on the character typed (event.key), never on the physical key:
// j, k and x sit in different places on AZERTY and QWERTY and are typed without AltGr on both.

export type GridAction =
  | { type: 'move'; delta: number; extend: boolean }
  | { type: 'edge'; to: 'first' | 'last'; extend: boolean }
  | { type: 'toggle' }
  | { type: 'selectAll' }
  | { type: 'clear' };

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** How many rows PageUp/PageDown jump. */
const PAGE_JUMP = 20;

export function gridAction(e: KeyLike): GridAction | null {
  const mod = e.ctrlKey || e.metaKey;
  if (e.altKey) return null;
  if (mod) return e.key.toLowerCase() === 'a' && !e.shiftKey ? { type: 'selectAll' } : null;
  const extend = e.shiftKey;
  switch (e.key) {
    case 'j':
    case 'J':
    case 'ArrowDown':
      return { type: 'move', delta: 1, extend };
    case 'k':
    case 'K':
    case 'ArrowUp':
      return { type: 'move', delta: -1, extend };
    case 'PageDown':
      return { type: 'move', delta: PAGE_JUMP, extend };
    case 'PageUp':
      return { type: 'move', delta: -PAGE_JUMP, extend };
    case 'Home':
      return { type: 'edge', to: 'first', extend };
    case 'End':
      return { type: 'edge', to: 'last', extend };
    case 'x':
    case ' ':
      return extend ? null : { type: 'toggle' };
    case 'Escape':
      return { type: 'clear' };
    default:
      return null;
  }
}
