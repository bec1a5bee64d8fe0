import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { Button } from 'react-aria-components';
import { Link } from 'react-router';
import { useSnapshot } from 'valtio';
import type { Notification } from '../../api/notifications/contract';
import { useNotifications } from '../../api/notifications/hooks';
import { notificationsQuery } from '../../api/notifications/queries';
import { markNotificationsRead } from '../../api/notifications/requests';
import { ariaShortcut, shortcutCaps } from '../../commands/keys';
import { useIntl, useT } from '../../i18n/provider';
import { alertPath } from '../../shared/alertPaths';
import { Hint } from '../../ui/Hint';
import { Icon } from '../../ui/icons';
import { WideDialog } from '../../ui/WideDialog';
import { userState } from '../../state/user';
import { alertMessage } from './alertMessage';
import { notificationsPanel } from './notificationsPanel';
import '../../styles/notifications.css';

const KEY = 'g n';

/** The navbar's bell (admins): the unread count, opening the list of alerts. */
export function NotificationsBell() {
  const t = useT();
  const { userData } = useSnapshot(userState);
  const notifications = useNotifications();
  const queryClient = useQueryClient();
  // Back to the window (another window, another tab): the alerts raised meanwhile, at once.
  // react-query's own refetch on focus follows only the page's visibility, not the window's focus.
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey });
    window.addEventListener('focus', refresh);
    return () => window.removeEventListener('focus', refresh);
  }, [queryClient]);
  if (!userData?.admin) return null;
  const unread = notifications.data?.pages[0]?.unread ?? 0;
  const label = t('notifications.bell', { count: unread });
  const keyHint = shortcutCaps(KEY, t)
    .map((chord) => chord.join('+'))
    .join(' ');
  return (
    <>
      <Hint label={`${label} (${keyHint})`}>
        <Button
          className="icon-btn"
          aria-label={label}
          aria-haspopup="dialog"
          aria-keyshortcuts={ariaShortcut(KEY)}
          data-command="notifications.open"
          onPress={() => (notificationsPanel.open = true)}
        >
          <Icon name="bell" />
          {unread > 0 ? (
            <span className="badge" aria-hidden="true">
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </Button>
      </Hint>
      <NotificationsPanel />
    </>
  );
}

/** The alerts, newest first: each links to its subject and may be marked read; all at once too. */
function NotificationsPanel() {
  const t = useT();
  const { open } = useSnapshot(notificationsPanel);
  const queryClient = useQueryClient();
  const notifications = useNotifications();
  const items = notifications.data?.pages.flatMap((p) => p.data) ?? [];
  const unread = notifications.data?.pages[0]?.unread ?? 0;
  const close = () => {
    notificationsPanel.open = false;
  };
  const mark = async (body: { ids: number[] } | { all: true }, focusAfter: () => void) => {
    await markNotificationsRead(body);
    await queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey });
    // The button pressed is gone or disabled now: the focus stays in the list.
    focusAfter();
  };
  const focusLink = (id: number | undefined) => () => {
    if (id !== undefined) document.getElementById(`notification-${id}`)?.focus();
  };
  return (
    <WideDialog open={open} onClose={close} title={t('notifications.title')} className="notifications">
      <p className="muted" aria-live="polite">
        {t('notifications.unreadCount', { count: unread })}
      </p>
      {notifications.isPending ? (
        <p className="muted">{t('grid.loading')}</p>
      ) : items.length === 0 ? (
        <p className="muted">{t('notifications.empty')}</p>
      ) : (
        <ul className="notification-list">
          {items.map((n) => (
            <NotificationItem key={n.id} n={n} onOpen={close} onMark={() => void mark({ ids: [n.id] }, focusLink(n.id))} />
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        {notifications.hasNextPage ? (
          <Button className="btn" isDisabled={notifications.isFetchingNextPage} onPress={() => void notifications.fetchNextPage()}>
            {t('notifications.more')}
          </Button>
        ) : null}
        {unread > 0 ? (
          <Button className="btn" onPress={() => void mark({ all: true }, focusLink(items[0]?.id))}>
            {t('notifications.markAllRead')}
          </Button>
        ) : null}
        <Button className="btn btn-primary" onPress={close}>
          {t('shell.close')}
        </Button>
      </div>
    </WideDialog>
  );
}

function NotificationItem({ n, onOpen, onMark }: { n: Notification; onOpen: () => void; onMark: () => void }) {
  const t = useT();
  const intl = useIntl();
  const textId = useId();
  const message = alertMessage(t, n);
  return (
    <li className={n.read ? 'notification' : 'notification notification-unread'}>
      <span className="notification-state">{t(n.read ? 'notifications.read' : 'notifications.unread')}</span>
      <Link
        id={`notification-${n.id}`}
        to={alertPath(n)}
        onClick={() => {
          onOpen();
          if (!n.read) onMark();
        }}
      >
        <span id={textId}>{message}</span>
      </Link>
      <time className="muted" dateTime={n.created_at}>
        {intl.formatDate(n.created_at, { dateStyle: 'short', timeStyle: 'short' })}
      </time>
      {n.read ? null : (
        <Button className="btn btn-small" aria-describedby={textId} onPress={onMark}>
          {t('notifications.markRead')}
        </Button>
      )}
    </li>
  );
}
