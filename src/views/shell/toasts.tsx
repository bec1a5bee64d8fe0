import {
  Button,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
  Text,
} from 'react-aria-components';
import type { Toaster, ToastTone } from '../../commands/context';
import { useT } from '../../i18n/provider';

interface ToastBody {
  tone: ToastTone;
  message: string;
}

/** SPEC.md §9: messages stay 5 s (the login error among them). */
export const TOAST_MS = 5000;

export const toastQueue = new ToastQueue<ToastBody>({ maxVisibleToasts: 4 });

const show = (tone: ToastTone) => (message: string) => {
  toastQueue.add({ tone, message }, { timeout: TOAST_MS });
};

/** The toaster of the command context and of screens outside it (login). */
export const toaster: Toaster = { success: show('success'), info: show('info'), warning: show('warning'), error: show('error') };

export function Toasts() {
  const t = useT();
  return (
    <ToastRegion queue={toastQueue} className="toasts" aria-label={t('shell.notifications')}>
      {({ toast }) => (
        <Toast toast={toast} className={`toast toast-${toast.content.tone}`}>
          {/* The toast's dialog is named by its title slot: without it axe finds an unnamed dialog. */}
          <ToastContent className="toast-message">
            <Text slot="title">{toast.content.message}</Text>
          </ToastContent>
          <Button slot="close" className="toast-close" aria-label={t('shell.close')}>
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
