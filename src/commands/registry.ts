/**
 * The command registry: every user action is declared once here and reached from the palette,
 * a hotkey, a button, a menu or a context menu through the same `runCommand` path.
 *
 * Declaring (one file per screen, src/views/<screen>/<screen>.commands.ts, loaded by src/app/commands.ts):
 *
 *   defineCommand({
 *     id: 'leads.archive',                  // stable, dotted domain.verb; duplicates throw (outside Vite's HMR)
 *     title: 'leads.archive',               // i18n message id (src/i18n/{fr,en,es,zh}.json)
 *     section: 'leads',                     // help-overlay heading, i18n id `commands.section.<section>`
 *     keys: ['a'],                          // data: 'a', 'shift+delete', 'mod+k', sequences 'g c'
 *     requires: 'staff',                    // 'staff' = any signed-in user, 'admin' = admins only,
 *                                           // 'session' = the shell's own (language, sign-out): before the user's record too
 *     scope: 'leads',                       // the screen where it applies (absent: everywhere): a ScreenId
 *     when: onLeads,                        // enabled and shown, given the run's args; a type guard narrows what `run` gets
 *     menus: [{ id: 'leads.actions', group: 'status', order: 2 }],   // where its buttons appear: a MenuId
 *     confirm: 'leads.delete.confirm',      // optional: asks first in a dialog (i18n id)
 *     run: async (ctx, args) => { ... },    // calls /api, toasts the result with ctx.toast
 *   });
 *
 * `when` runs before `run`, against the same context and arguments: a `when` declared as a type guard
 * (`(ctx: CommandContext): ctx is ContextWith<'leads'> => …`) hands `run` the narrowed context, so
 * `run` reads `ctx.leads.landingIds` without `!`. A row's button passes its row as arguments, and
 * its command's `when` judges that row, not the list's focused one (which the screen provides
 * after rendering, and which a filter may have just removed). Menu ids are declared tokens: the file that
 * fills a menu adds it to `MenuRegistry` (`declare module '../../commands/registry'`), and a
 * command or a `<CommandMenu>` naming an undeclared menu fails typecheck.
 *
 * Running: `runCommand(id, args?, source?)` from anywhere. Toolbars, context menus and the navbar
 * are `<CommandMenu menu="…" />` (src/commands/CommandMenu.tsx): the commands that name that menu
 * in `menus`, in order, grouped; a lone button is `<CommandButton command="…" />`.
 *
 * Context: `ctx` is built fresh on each call from the providers of src/commands/context.ts.
 * The shell provides user, view, path, params, navigate, t, toast; a screen adds its own
 * fields with `useProvideCommandContext({ selection, ... })` while it is mounted, after
 * declaring their types by augmenting `CommandContextExtensions` (see context.ts).
 *
 * Keys: matched on the character typed (event.key), so they work on AZERTY and QWERTY alike
 * (src/commands/keys.ts). Single-letter keys never fire while typing in a field, and nothing
 * fires while a dialog or the palette is open (src/commands/hotkeys.ts).
 */
import type { User } from '../api/auth/contract';
import type { IconName } from '../ui/icons';
import { getCommandContext, type CommandContext } from './context';
import type { ScreenId } from './screens';

export type Role = 'staff' | 'admin';
/**
 * Who may run a command: a role, or 'session' for the shell's commands that do not depend on the
 * user (language, size, theme, help, sign-out), which work while the user's record loads or has failed.
 */
export type Permission = Role | 'session';

/** Where a run came from: kept for the recent list and the tests of "one path". */
export type CommandSource = 'palette' | 'hotkey' | 'button' | 'menu' | 'sidebar' | 'navbar' | 'tags' | 'api';

/** One way to run a command with arguments, as the palette lists it: `label` is translated text. */
export interface CommandChoice<Args> {
  label: string;
  args: Args;
  hint?: string;
}

/** The menus, each added by the file whose commands fill it: `interface MenuRegistry { 'rules.actions': true }`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MenuRegistry {}

/** The id of a declared menu. */
export type MenuId = keyof MenuRegistry & string;

/** A place where a command shows as a button or a menu item. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface MenuPlace<Args = any> {
  /** The menu: 'navbar', 'tags.context', 'leads.actions'… */
  id: MenuId;
  /** Items of one group stand together; a separator parts groups. */
  group?: string;
  order: number;
  /**
   * Shown in this menu only when this holds (the navbar's error log: desktop only). `args` are
   * the menu's own (a row's buttons pass their row), undefined in a toolbar acting on the focused row.
   */
  when?: (ctx: CommandContext, args: Args | undefined) => boolean;
  /** Also a button in each row of a list screen whose row menu this is (VS Code's inline group of tree items). */
  inline?: boolean;
  tone?: 'primary' | 'danger';
  /** Where a menu shows icons: also this text (i18n id) beside the icon, with the key. */
  label?: string;
  /** The state of what the button opens or closes (aria-expanded: the sidebar's toggle). */
  expanded?: () => boolean;
}

/**
 * `Ctx`: the context `run` receives, narrowed by `when` when `when` is a type guard
 * (`(ctx: CommandContext) => ctx is Ctx`); the whole context otherwise.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Command<Args = any, Ctx extends CommandContext = any> {
  id: string;
  title: string;
  section: string;
  keys?: readonly string[];
  requires: Permission;
  /** The screen (`ctx.view`) where the command applies; absent for the commands of every screen. */
  scope?: ScreenId;
  when?: ((ctx: CommandContext, args: Args | undefined) => ctx is Ctx) | ((ctx: CommandContext, args: Args | undefined) => boolean);
  menus?: readonly MenuPlace<Args>[];
  /** The icon of its button where a menu shows icons (the navbar). */
  icon?: IconName;
  /** A count shown on its button (the error log's entries). */
  badge?: () => number;
  /**
   * Asks first in a dialog: the message's i18n id, or the message, its title, the confirming
   * button's label and the message's values for this run (the deletion names how many leads it deletes).
   */
  confirm?: string | { message: string; title?: string; ok?: string; values?: (ctx: Ctx, args: Args) => Record<string, string | number> };
  /** Kept out of the palette's action group (e.g. entity jumps listed by their own entries). */
  palette?: boolean;
  /**
   * For a command that takes arguments: the palette lists one entry per choice (a language, a
   * landing to convert to, a visited view), so the palette reaches it too.
   */
  choices?: (ctx: CommandContext) => readonly CommandChoice<Args>[];
  run: (ctx: Ctx, args: Args) => unknown;
}

export type RunOutcome = 'ran' | 'forbidden' | 'disabled' | 'cancelled' | 'failed';

export interface RunRecord {
  id: string;
  args: unknown;
  source: CommandSource;
  outcome: RunOutcome;
}

const commands = new Map<string, Command>();
const listeners = new Set<() => void>();
let version = 0;

function changed() {
  version++;
  for (const l of listeners) l();
}

export function defineCommand<Args = void, Ctx extends CommandContext = CommandContext>(command: Command<Args, Ctx>): Command<Args, Ctx> {
  // Vite re-runs a command file it hot-reloads: in development the new declaration replaces the old.
  if (commands.has(command.id) && !import.meta.hot) throw new Error(`Command "${command.id}" is already defined`);
  commands.set(command.id, command);
  changed();
  return command;
}

/** Removes a command (tests, and screens that define commands for their own lifetime). */
export function undefineCommand(id: string) {
  if (commands.delete(id)) changed();
}

export function getCommand(id: string): Command | undefined {
  return commands.get(id);
}

export function allCommands(): Command[] {
  return [...commands.values()];
}

export function subscribeCommands(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const commandsVersion = () => version;

/** The commands shown in a menu, in order: each with its place there. */
export function commandsOf(menu: MenuId): { command: Command; place: MenuPlace }[] {
  const out: { command: Command; place: MenuPlace }[] = [];
  for (const command of commands.values()) {
    for (const place of command.menus ?? []) if (place.id === menu) out.push({ command, place });
  }
  return out.sort((a, b) => a.place.order - b.place.order);
}

/** Whether this user may run the command at all: 'session' with or without the user's record, 'staff' any signed-in user. */
export function isPermitted(command: Pick<Command, 'requires'>, user: User | null): boolean {
  if (command.requires === 'session') return true;
  if (!user) return false;
  return command.requires === 'staff' || user.admin;
}

/**
 * Permitted for this user and enabled in this context, for these arguments (a row's button passes
 * its row; the palette, keys and toolbars none): what the palette, help and buttons show.
 */
export function isAvailable(command: Command, ctx: CommandContext, args?: unknown): boolean {
  if (!isPermitted(command, ctx.user)) return false;
  if (command.scope !== undefined && command.scope !== ctx.view) return false;
  try {
    return command.when ? command.when(ctx, args) : true;
  } catch {
    return false;
  }
}

/** A confirmation as shown: translated texts. */
export interface ConfirmText {
  message: string;
  title?: string;
  ok?: string;
}
type Confirmer = (text: ConfirmText, ctx: CommandContext) => Promise<boolean>;
type FailureReporter = (error: unknown, command: Command, ctx: CommandContext) => void;
type RunListener = (record: RunRecord) => void;

let confirmer: Confirmer = async () => false;
let reportFailure: FailureReporter = () => {};
const runListeners = new Set<RunListener>();

/** The shell installs the react-aria confirmation dialog and the failure toast. */
export function setConfirmer(fn: Confirmer) {
  confirmer = fn;
}
export function setFailureReporter(fn: FailureReporter) {
  reportFailure = fn;
}
export function onCommandRun(listener: RunListener) {
  runListeners.add(listener);
  return () => runListeners.delete(listener);
}

/**
 * Runs a command after checking its role and `when` against a fresh context, asking for
 * confirmation first when it declares `confirm`. Unknown ids throw: they are programming errors.
 */
export async function runCommand(id: string, args?: unknown, source: CommandSource = 'api'): Promise<RunOutcome> {
  const command = commands.get(id);
  if (!command) throw new Error(`Unknown command "${id}"`);
  const ctx = getCommandContext();
  const outcome = await execute(command, ctx, args);
  const record: RunRecord = { id, args, source, outcome };
  for (const l of runListeners) l(record);
  return outcome;
}

async function execute(command: Command, ctx: CommandContext, args: unknown): Promise<RunOutcome> {
  if (!isPermitted(command, ctx.user)) return 'forbidden';
  if (!isAvailable(command, ctx, args)) return 'disabled';
  if (command.confirm && !(await confirmer(confirmText(command, ctx, args), ctx))) return 'cancelled';
  try {
    await command.run(ctx, args);
    return 'ran';
  } catch (error) {
    reportFailure(error, command, ctx);
    return 'failed';
  }
}

function confirmText(command: Command, ctx: CommandContext, args: unknown): ConfirmText {
  const c = command.confirm!;
  if (typeof c === 'string') return { message: ctx.t(c) };
  const values = c.values?.(ctx, args);
  return { message: ctx.t(c.message, values), title: c.title ? ctx.t(c.title) : undefined, ok: c.ok ? ctx.t(c.ok, values) : undefined };
}
