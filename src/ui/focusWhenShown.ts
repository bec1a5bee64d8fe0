/**
 * Focuses the element a command just made appear (a tab's first field, a folded panel's first
 * choice): it renders a frame or a few later, after the state change that shows it.
 */
export function focusWhenShown(selector: string, frames = 30) {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) return el.focus();
  if (frames > 0) requestAnimationFrame(() => focusWhenShown(selector, frames - 1));
}
