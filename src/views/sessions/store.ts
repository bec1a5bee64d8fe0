import type { Session } from '../../api/sessions/contract';

/** What the sessions commands see of the mounted screen (CommandContext.sessions). */
export interface SessionsCommandContext {
  focused: Session | undefined;
  /** Other sessions are open: 'Se déconnecter partout' has something to end. */
  others: boolean;
}
