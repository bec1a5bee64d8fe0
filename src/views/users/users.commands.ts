/**
 * The accounts screen's commands — the role, the exports and the deletion of the focused
 * account, the invitation, the tabs — and the palette's users, each a jump to its exports.
 */
import { ApiError } from '../../api/client';
import { fetchNow, queryClient } from '../../api/queryClient';
import { usersQuery } from '../../api/users/queries';
import { deleteUser, inviteUser, resendInvitation, toggleRole } from '../../api/users/requests';
import { resetFactors } from '../../api/two-factor/requests';
import type { Account } from '../../api/users/contract';
import type { CommandContext, ContextWith } from '../../commands/context';
import { definePaletteSource } from '../../commands/palette/sources';
import { LastChange } from '../../commands/lastChange';
import { defineCommand } from '../../commands/registry';
import { focusWhenShown } from '../../ui/focusWhenShown';
import { inviteForm, userTabs, type UsersCommandContext } from './store';
import { hrefOf } from '../../commands/screens';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'users.actions': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    users: UsersCommandContext;
  }
}

definePaletteSource({
  id: 'users',
  order: 50,
  requires: 'admin',
  query: usersQuery,
  entries: (users) => users.map((u) => ({ key: String(u.id), label: u.name, hint: u.email, command: 'nav.exports', args: { userId: u.id } })),
});

const section = 'users';
const scope = 'users';
type OnScreen = ContextWith<'users'>;
type OnAccount = OnScreen & { users: { focused: Account } };
const onScreen = (ctx: CommandContext): ctx is OnScreen => ctx.users !== undefined;
/** An account focused in the list. */
const onAccount = (ctx: CommandContext): ctx is OnAccount => ctx.users?.tab === 'list' && ctx.users.focused !== undefined;
/** The console always keeps the administrator who is acting: never their own role or account. */
const someoneElse = (ctx: CommandContext): ctx is OnAccount => onAccount(ctx) && ctx.users.focused.id !== ctx.user?.id;

async function afterChange(ctx: CommandContext) {
  await queryClient.invalidateQueries({ queryKey: usersQuery.queryKey });
  await ctx.grid?.refresh();
}

/** The last role change, which the toast's Annuler or `z` puts back once (one key changes a role). */
const lastRole = new LastChange<{ id: number; admin: boolean }>();

function roleCommand(id: string, keys: string[], admin: boolean, order: number) {
  defineCommand({
    id,
    title: id,
    section,
    scope,
    keys,
    requires: 'admin',
    menus: [{ id: 'users.actions', group: 'role', order }],
    when: (ctx): ctx is OnAccount => someoneElse(ctx) && ctx.users.focused.admin !== admin,
    run: async (ctx) => {
      const account = ctx.users.focused;
      await lastRole.record({ id: account.id, admin }, toggleRole(account.id));
      ctx.toast.success(ctx.t('users.toast.role'), { label: ctx.t('shell.toast.undo'), command: 'users.undoRole' });
      await afterChange(ctx);
    },
  });
}

roleCommand('users.makeAdmin', ['a'], true, 1);
roleCommand('users.makeNormal', ['n'], false, 2);

defineCommand({
  id: 'users.undoRole',
  title: 'users.undoRole',
  section,
  scope,
  keys: ['z'],
  requires: 'admin',
  when: (ctx) => ctx.users !== undefined && lastRole.known,
  run: async (ctx) => {
    const change = await lastRole.take();
    if (!change) return;
    // Only while the account still has the role given (someone may have changed it since), read
    // again: a z pressed at once would otherwise meet the list from before the change.
    const account = (await fetchNow(usersQuery)).find((u) => u.id === change.id);
    if (account?.admin === change.admin) await toggleRole(change.id);
    ctx.toast.info(ctx.t('users.toast.roleUndone'));
    await afterChange(ctx);
    ctx.grid?.focus();
  },
});

defineCommand({
  id: 'users.exports',
  title: 'users.exports',
  section,
  scope,
  keys: ['e'],
  requires: 'admin',
  menus: [{ id: 'users.actions', group: 'open', order: 3 }],
  when: onAccount,
  run: (ctx) => ctx.navigate(hrefOf('exports', { userId: ctx.users.focused.id })),
});

defineCommand({
  id: 'users.delete',
  title: 'users.delete',
  section,
  scope,
  keys: ['shift+delete'],
  requires: 'admin',
  menus: [{ id: 'users.actions', group: 'danger', order: 9, tone: 'danger' }],
  when: someoneElse,
  confirm: { message: 'users.delete.confirm', ok: 'users.delete.ok' },
  run: async (ctx) => {
    await deleteUser(ctx.users.focused.id);
    ctx.toast.success(ctx.t('users.toast.deleted'));
    await afterChange(ctx);
  },
});

defineCommand({
  id: 'users.resetFactors',
  title: 'users.resetFactors',
  section,
  scope,
  requires: 'admin',
  menus: [{ id: 'users.actions', group: 'danger', order: 8, tone: 'danger' }],
  // A lost phone or key: the account enrols again at its next sign-in. One's own factors: the account menu.
  when: someoneElse,
  confirm: { message: 'users.resetFactors.confirm', ok: 'users.resetFactors.ok' },
  run: async (ctx) => {
    await resetFactors(ctx.users.focused.id);
    ctx.toast.success(ctx.t('users.toast.factorsReset'));
  },
});

defineCommand({
  id: 'users.reinvite',
  title: 'users.reinvite',
  section,
  scope,
  keys: ['i'],
  requires: 'admin',
  menus: [{ id: 'users.actions', group: 'open', order: 4 }],
  // Only an account that has not chosen its password yet: the others use 'Mot de passe oublié ?'.
  when: (ctx): ctx is OnAccount => onAccount(ctx) && ctx.users.focused.invitation != null,
  run: async (ctx) => {
    await resendInvitation(ctx.users.focused.id);
    ctx.toast.success(ctx.t('users.toast.reinvited'));
    await afterChange(ctx);
  },
});

const focusInviteName = () => focusWhenShown('[data-invite-form] input[name=name]');

defineCommand({
  id: 'users.invite',
  title: 'users.invite',
  section,
  scope,
  keys: ['c'],
  requires: 'admin',
  when: (ctx): ctx is OnScreen => onScreen(ctx) && !inviteForm.sending,
  // From the palette or the key with the form empty: the form, ready to type; else it sends what the form holds.
  run: async (ctx) => {
    const name = inviteForm.name.trim();
    const email = inviteForm.email.trim();
    if (ctx.users.tab !== 'create' || (!name && !email)) {
      ctx.users.showTab('create');
      focusInviteName();
      return;
    }
    inviteForm.sending = true;
    inviteForm.errors = {};
    try {
      await inviteUser({ name, email });
      inviteForm.name = '';
      inviteForm.email = '';
      ctx.toast.success(ctx.t('users.toast.created'));
      // Ready for the next account.
      focusInviteName();
      await queryClient.invalidateQueries({ queryKey: usersQuery.queryKey });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 422 || error.status === 409)) {
        const fields = (error.body?.errors ?? {}) as Record<string, string>;
        inviteForm.errors = error.status === 409 ? { email: error.message } : { name: fields.name, email: fields.email };
        throw new Error(error.status === 409 ? error.message : ctx.t('users.error.fields'));
      }
      throw new Error(ctx.t('users.error.create'));
    } finally {
      inviteForm.sending = false;
    }
  },
});

userTabs.forEach((tab, i) => {
  defineCommand({
    id: `users.tab.${tab}`,
    title: `users.tab.${tab}`,
    section,
    scope,
    keys: [String(i + 1)],
    requires: 'admin',
    when: onScreen,
    // The keys go on with what the tab shows: the form's first field, or the accounts' rows.
    run: (ctx) => ctx.users.showTab(tab),
  });
});
