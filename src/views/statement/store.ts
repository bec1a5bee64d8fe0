// State of the statement screen shared by its component and its commands (statement.commands.ts).
import { proxy } from 'valtio';
import type { Statement } from '../../api/customers/contract';

export { shiftMonth } from '../../shared/dates';

/** What the statement commands see of the mounted screen (CommandContext.statement). */
export interface StatementCommandContext {
  customerId: number;
  /** The month shown, YYYY-MM (Paris calendar). */
  month: string;
  /** The current Paris month: nothing after it. */
  currentMonth: string;
  statement: Statement | undefined;
}

/** A download under way (one at a time). */
export const statementView = proxy({ busy: false });
