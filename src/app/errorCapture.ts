import { addErrorLog } from '../state/ui';

/** Feeds the error log with window errors and unhandled promise rejections. */
export function captureWindowErrors(target: Window = window) {
  target.addEventListener('error', (event) => {
    addErrorLog({ source: 'error', message: event.message || String(event.error), stack: event.error?.stack });
  });
  target.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason as { message?: string; stack?: string } | undefined;
    addErrorLog({ source: 'rejection', message: reason?.message ?? String(event.reason), stack: reason?.stack });
  });
}

/** React root callbacks: render errors caught by a boundary or not caught at all. */
export const reactErrorCallbacks = {
  onCaughtError: (error: unknown) => logRenderError(error),
  onUncaughtError: (error: unknown) => logRenderError(error),
};

function logRenderError(error: unknown) {
  const e = error as { message?: string; stack?: string };
  addErrorLog({ source: 'render', message: e?.message ?? String(error), stack: e?.stack });
}
