/**
 * Focus never falls to <body>. When the focused element goes away (a tab key replaced the list
 * that had it, React hid it while the next tab loads, a row vanished), the focus goes to the
 * screen's main region: the keys still reach the screen there, and a list that mounts in it takes
 * it. When it stays but disables itself (Générer while the export runs, Attribuer le rôle admin
 * once the account is admin, Ré-insérer les leads once done), the focus goes on where the user
 * was working: to the rows for a toolbar acting on a list, else to the next control.
 * A click on nothing (the element still shown and usable) is left alone. A dialog gives the focus
 * back itself when it is gone (react-aria, a frame after it unmounts): wait for that first, or the
 * focus would land on the main region instead of where the dialog was opened from.
 */

const CONTROLS = 'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

const usable = (el: Element) => !(el as HTMLButtonElement).disabled && el.getAttribute('aria-disabled') !== 'true' && !el.closest('[inert]');
const shown = (el: HTMLElement) => el.isConnected && el.checkVisibility?.() !== false;

/** Where the focus goes from `lost`, still shown but disabled. */
function nextStop(lost: HTMLElement, main: HTMLElement): HTMLElement {
  // A command of a toolbar (a command menu's group) acts on the focused row of the screen's list.
  const grid = main.querySelector<HTMLElement>('[role=grid][tabindex="0"]');
  if (grid && shown(grid) && lost.matches('[data-command]') && lost.closest('[role=group], [role=toolbar]')) return grid;
  const controls = [...main.querySelectorAll<HTMLElement>(CONTROLS)].filter((el) => el !== lost && usable(el) && el.tabIndex >= 0 && shown(el));
  const after = controls.find((el) => lost.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  return after ?? controls.at(-1) ?? main;
}

export function installFocusRescue(doc: Document = document): () => void {
  const win = doc.defaultView!;
  const afterFrames = (run: () => void) => win.requestAnimationFrame(() => win.requestAnimationFrame(run));
  const rescue = (lost: HTMLElement, tries: number) => {
    const active = doc.activeElement;
    if (active && active !== doc.body) return;
    const stayed = shown(lost);
    if (stayed && usable(lost)) return;
    if (doc.querySelector('.overlay, [role=dialog], [role=alertdialog]') && tries < 30) {
      win.setTimeout(() => afterFrames(() => rescue(lost, tries + 1)), 100);
      return;
    }
    const main = doc.getElementById('main');
    if (!main) return;
    (stayed && main.contains(lost) ? nextStop(lost, main) : main).focus({ preventScroll: true });
  };
  // The element of the main region that has the focus, known when it is removed (then no longer in it).
  let focusedInMain: EventTarget | null = null;
  const onFocusIn = (e: FocusEvent) => {
    focusedInMain = doc.getElementById('main')?.contains(e.target as Node) ? e.target : null;
  };
  const onFocusOut = (e: FocusEvent) => {
    if (e.relatedTarget) return;
    const lost = e.target as HTMLElement;
    // Removed with its part of the screen (a tab key replaced the list that had it): rescued as
    // soon as the change is done, before the page paints or the next key arrives. Two frames
    // later, as below, is up to a second on a loaded machine drawing the next tab, with the keys
    // of that second typed to <body>.
    if (lost === focusedInMain) queueMicrotask(() => !lost.isConnected && rescue(lost, 0));
    afterFrames(() => rescue(lost, 0));
  };
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('focusout', onFocusOut);
  return () => {
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('focusout', onFocusOut);
  };
}
