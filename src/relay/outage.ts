// FICS out of reach: live boards stop moving, and should not look current meanwhile. A connection
// that drops and comes back within seconds is normal (a reconnect): only an outage longer than
// that is announced, and the all-clear comes as soon as one connection is online again.

/** What the watch needs of the FICS pool. */
export interface OutageSource {
  status(): { state: string }[];
  on(event: 'state', listener: () => void): unknown;
  off(event: 'state', listener: () => void): unknown;
}

/** How long FICS must be unreachable before live posts say so. */
export const OUTAGE_NOTICE_MS = 5_000;

/**
 * Calls `onChange(true)` once no connection has been online for `delayMs`, and `onChange(false)`
 * as soon as one is again. Returns a function that stops watching.
 */
export function watchOutage(
  source: OutageSource,
  onChange: (down: boolean) => void,
  delayMs = OUTAGE_NOTICE_MS,
): () => void {
  let down = false;
  let timer: NodeJS.Timeout | undefined;
  const online = (): boolean => source.status().some((c) => c.state === 'online');
  const changed = (): void => {
    if (online()) {
      clearTimeout(timer);
      timer = undefined;
      if (down) onChange((down = false));
    } else if (!down && timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        if (!online()) onChange((down = true));
      }, delayMs);
    }
  };
  source.on('state', changed);
  return () => {
    clearTimeout(timer);
    source.off('state', changed);
  };
}
