/**
 * The last change of a screen that `z` (or its toast's Annuler) puts back once. It is known from
 * the moment the change is sent: the list can show the change (a live event) before the change's
 * own answer reaches the command, and a `z` pressed then waits for that answer instead of finding
 * nothing to undo.
 */
export class LastChange<T> {
  private pending: Promise<T | null> | null = null;

  /** Sends the change (`send`): known at once, kept once it succeeded; rejects as `send` does. */
  async record(change: T, send: Promise<unknown>): Promise<void> {
    const sent = send.then(() => change);
    this.pending = sent.catch(() => null);
    await sent;
  }

  /** A change is sent or done, not yet put back. */
  get known(): boolean {
    return this.pending !== null;
  }

  /** The change, once: null when it failed or was already taken. */
  take(): Promise<T | null> {
    const pending = this.pending ?? Promise.resolve(null);
    this.pending = null;
    return pending;
  }
}
