/**
 * The toast host: messages in a corner away from the navbar, each announced as a status
 * (success, info) or an alert (warning, error), not as a dialog. One toast per message: the same
 * message again keeps the one shown on screen for another full delay. Signing in clears them
 * (a sign-in failure does not follow the user into the console).
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useSnapshot } from 'valtio';
import type { ToastAction, Toaster, ToastTone } from '../commands/context';
import { runCommand } from '../commands/registry';
import { useT } from '../i18n/provider';
import { userState } from '../state/user';

/** docs/product.md §9: messages stay 5 s (the login error among them). */
export const TOAST_MS = 5000;
const MAX_VISIBLE = 4;

export interface ToastItem {
  id: number;
  tone: ToastTone;
  message: string;
  action?: ToastAction;
}

let items: readonly ToastItem[] = [];
let lastId = 0;
const listeners = new Set<() => void>();
/** Each toast's time left, and when its current countdown started (null while paused). */
const clocks = new Map<number, { left: number; since: number | null; timer?: ReturnType<typeof setTimeout> }>();
let paused = false;

function publish(next: readonly ToastItem[]) {
  items = next;
  for (const l of listeners) l();
}

function start(id: number) {
  const clock = clocks.get(id);
  if (!clock || paused) return;
  clock.since = Date.now();
  clock.timer = setTimeout(() => closeToast(id), clock.left);
}

function stop(id: number) {
  const clock = clocks.get(id);
  if (!clock || clock.since === null) return;
  clearTimeout(clock.timer);
  clock.left -= Date.now() - clock.since;
  clock.since = null;
}

export function showToast(tone: ToastTone, message: string, action?: ToastAction) {
  // A toast with a button is its own: an undo never acts on an earlier change of the same words.
  const same = action ? undefined : items.find((i) => i.tone === tone && i.message === message && !i.action);
  if (same) {
    stop(same.id);
    clocks.set(same.id, { left: TOAST_MS, since: null });
    start(same.id);
    return;
  }
  const item = { id: ++lastId, tone, message, action };
  clocks.set(item.id, { left: TOAST_MS, since: null });
  start(item.id);
  const next = [...items, item];
  for (const gone of next.slice(0, Math.max(0, next.length - MAX_VISIBLE))) forget(gone.id);
  publish(next.slice(-MAX_VISIBLE));
}

function forget(id: number) {
  stop(id);
  clocks.delete(id);
}

export function closeToast(id: number) {
  forget(id);
  publish(items.filter((i) => i.id !== id));
}

export function clearToasts() {
  for (const i of items) forget(i.id);
  publish([]);
}

/** While the pointer or the focus is on the toasts, they stay (time to read or to close them). */
function pause(on: boolean) {
  if (paused === on) return;
  if (on) for (const i of items) stop(i.id);
  paused = on;
  if (!on) for (const i of items) start(i.id);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The toaster of the command context and of screens outside it (login). */
export const toaster: Toaster = {
  success: (m, action) => showToast('success', m, action),
  info: (m, action) => showToast('info', m, action),
  warning: (m, action) => showToast('warning', m, action),
  error: (m, action) => showToast('error', m, action),
};

export function Toasts() {
  const t = useT();
  const list = useSyncExternalStore(subscribe, () => items);
  const { token } = useSnapshot(userState);
  const before = useRef(token);
  useEffect(() => {
    if (token && !before.current) clearToasts();
    before.current = token;
  }, [token]);
  return (
    <section
      className="toasts"
      aria-label={t('shell.notifications')}
      onMouseEnter={() => pause(true)}
      onMouseLeave={() => pause(false)}
      onFocus={() => pause(true)}
      onBlur={() => pause(false)}
    >
      {list.map((item) => (
        <div key={item.id} className={`toast toast-${item.tone}`} role={item.tone === 'warning' || item.tone === 'error' ? 'alert' : 'status'}>
          <span className="toast-message">{item.message}</span>
          {item.action ? (
            <button
              type="button"
              className="btn toast-action"
              onClick={() => {
                closeToast(item.id);
                void runCommand(item.action!.command, item.action!.args, 'button');
              }}
            >
              {item.action.label}
            </button>
          ) : null}
          <button type="button" className="toast-close" aria-label={t('shell.close')} onClick={() => closeToast(item.id)}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
