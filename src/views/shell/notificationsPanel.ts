import { proxy } from 'valtio';

/** Whether the notifications panel is open (the bell, its hotkey and the palette open it). */
export const notificationsPanel = proxy({ open: false });
