// State of the accounts screen shared by its components and its commands (users.commands.ts).
import { proxy } from 'valtio';
import type { Account } from '../../api/users/contract';

export const userTabs = ['list', 'create'] as const;
export type UserTab = (typeof userTabs)[number];

/** What the account commands see of the mounted screen (CommandContext.users). */
export interface UsersCommandContext {
  tab: UserTab;
  /** Shows a tab and takes the focus into it (the accounts' grid, or the form's name). */
  showTab: (tab: UserTab) => void;
  /** The account of the grid's focused row. */
  focused: Account | undefined;
}

/** The 'Créer un compte' form: kept here so that the invite command sends what it shows. */
export const inviteForm = proxy({
  name: '',
  email: '',
  errors: {} as Partial<Record<'name' | 'email', string>>,
  sending: false,
});
