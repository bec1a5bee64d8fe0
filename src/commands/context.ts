/**
 * The command context: what `when` and `run` see. Built fresh for each call by merging the
 * values of every mounted provider, later providers (screens) over earlier ones (the shell).
 *
 * A screen adds its own fields without touching this file:
 *
 *   declare module '../../commands/context' {
 *     interface CommandContextExtensions { leads: { landingIds: number[]; refresh(): void } }
 *   }
 *   useProvideCommandContext({ view: 'leads', selection, leads: { landingIds, refresh } });
 *
 * Values should be immutable (a new Set when the selection changes): providers are compared
 * shallowly to decide when buttons and menus re-evaluate `when`.
 */
import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { User } from '../api/auth/contract';
import type { ScreenId } from './screens';

export type ToastTone = 'success' | 'info' | 'warning' | 'error';
/** A button of a toast that runs a command (the undo of what the toast reports, `label` translated). */
export interface ToastAction {
  label: string;
  command: string;
  args?: unknown;
}
export type Toaster = Record<ToastTone, (message: string, action?: ToastAction) => void>;

export interface CommandContextBase {
  /** The signed-in user, or null before the user record is loaded. */
  user: User | null;
  /** The current screen, 'none' outside the shell's screens. */
  view: ScreenId | 'none';
  /** The full path of the current location, e.g. '/landings_test/3,4'. */
  path: string;
  params: Readonly<Record<string, string | undefined>>;
  /** Selected row ids of the current screen (empty when it has no selection). */
  selection: ReadonlySet<number>;
  navigate: (to: string, opts?: { replace?: boolean }) => void;
  /** Translates an i18n message id in the current language. */
  t: (id: string, values?: Record<string, string | number>) => string;
  toast: Toaster;
}

/** Screens augment this interface with their own fields (optional in the merged context). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CommandContextExtensions {}

export type CommandContext = CommandContextBase & Partial<CommandContextExtensions>;

/**
 * The context where the screen fields `K` are provided: what a `when` guard that checked them hands
 * to `run`, e.g. `(ctx: CommandContext): ctx is ContextWith<'reports'> => ctx.reports !== undefined`.
 */
export type ContextWith<K extends keyof CommandContextExtensions> = CommandContext & { [P in K]-?: CommandContextExtensions[P] };
export type CommandContextValues = Partial<CommandContext>;

const silent = () => {};
const defaults: CommandContextBase = {
  user: null,
  view: 'none',
  path: '/',
  params: {},
  selection: new Set(),
  navigate: silent,
  t: (id) => id,
  toast: { success: silent, info: silent, warning: silent, error: silent },
};

const providers: { values: CommandContextValues }[] = [];
const listeners = new Set<() => void>();
let version = 0;

function changed() {
  version++;
  for (const l of listeners) l();
}

export function getCommandContext(): CommandContext {
  return Object.assign({}, defaults, ...providers.map((p) => p.values));
}

/** Adds context values until the returned function is called; `update` replaces them. */
export function provideCommandContext(values: CommandContextValues) {
  const slot = { values };
  providers.push(slot);
  changed();
  return {
    update(next: CommandContextValues) {
      if (shallowEqual(slot.values, next)) return;
      slot.values = next;
      changed();
    },
    remove() {
      const i = providers.indexOf(slot);
      if (i >= 0) providers.splice(i, 1);
      changed();
    },
  };
}

/** React form of provideCommandContext: provides `values` while the component is mounted. */
export function useProvideCommandContext(values: CommandContextValues) {
  const handle = useRef<ReturnType<typeof provideCommandContext> | null>(null);
  useLayoutEffect(() => {
    const h = provideCommandContext(values);
    handle.current = h;
    return () => {
      h.remove();
      handle.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the slot lives as long as the component; `update` below follows the values
  }, []);
  useLayoutEffect(() => {
    handle.current?.update(values);
  });
}

export function subscribeCommandContext(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders the caller whenever a provider changes, and returns the current context. */
export function useCommandContext(): CommandContext {
  useSyncExternalStore(subscribeCommandContext, () => version);
  return getCommandContext();
}

function shallowEqual(a: CommandContextValues, b: CommandContextValues) {
  const ka = Object.keys(a) as (keyof CommandContextValues)[];
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k], b[k]));
}
