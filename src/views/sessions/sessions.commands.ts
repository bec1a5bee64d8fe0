/** 'Mes sessions': opening it from the account's menu, ending the focused session, ending every other one. */
import { queryClient } from '../../api/queryClient';
import { sessionsQuery } from '../../api/sessions/queries';
import { endOtherSessions, endSession } from '../../api/sessions/requests';
import type { Session } from '../../api/sessions/contract';
import type { CommandContext, ContextWith } from '../../commands/context';
import { defineCommand } from '../../commands/registry';
import { hrefOf } from '../../commands/screens';
import { ui } from '../../state/ui';
import type { SessionsCommandContext } from './store';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'sessions.actions': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    sessions: SessionsCommandContext;
  }
}

const section = 'sessions';
const scope = 'sessions';
type OnView = ContextWith<'sessions'>;
type OnOther = OnView & { sessions: { focused: Session } };
/** Another session focused: the current one ends by signing out. */
const onOther = (ctx: CommandContext): ctx is OnOther => ctx.sessions?.focused !== undefined && !ctx.sessions.focused.current;

defineCommand({
  id: 'sessions.open',
  title: 'sessions.open',
  section: 'shell',
  requires: 'staff',
  icon: 'sessions',
  palette: false,
  // A phone's navbar has no room left: there the palette opens it (nav.sessions).
  menus: [{ id: 'navbar.end', order: 1, when: () => ui.device === 'desktop' }],
  run: (ctx) => ctx.navigate(hrefOf('sessions', {})),
});

defineCommand({
  id: 'sessions.end',
  title: 'sessions.end',
  section,
  scope,
  keys: ['shift+delete'],
  requires: 'staff',
  when: onOther,
  menus: [{ id: 'sessions.actions', group: 'danger', order: 1, tone: 'danger' }],
  run: async (ctx) => {
    await endSession(ctx.sessions.focused.id);
    await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
    ctx.toast.success(ctx.t('sessions.toast.ended'));
  },
});

defineCommand({
  id: 'sessions.endOthers',
  title: 'sessions.endOthers',
  section,
  scope,
  requires: 'staff',
  when: (ctx): ctx is OnView => ctx.sessions?.others === true,
  menus: [{ id: 'sessions.actions', group: 'danger', order: 2, tone: 'danger' }],
  confirm: { message: 'sessions.endOthers.confirm', ok: 'sessions.endOthers.ok' },
  run: async (ctx) => {
    const { count } = await endOtherSessions();
    await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
    ctx.toast.success(ctx.t('sessions.toast.endedOthers', { count }));
  },
});
