/** The one bounded wait of the tests: re-checks a condition until it yields a value or time runs out. */

/** Something that says when its state changed, so a wait re-checks at once instead of at the next tick. */
export interface ChangeSource {
  on(event: 'change', listener: () => void): unknown;
  off(event: 'change', listener: () => void): unknown;
}

export interface WaitOptions {
  /** Fails after this long (default 15 s: a bound, generous for a loaded machine). */
  timeoutMs?: number;
  /** Re-checks this often (default 5 ms). */
  intervalMs?: number;
  /** Also re-checks on each of its `change` events. */
  wake?: ChangeSource;
}

/**
 * Resolves with the first value of `check` that is neither `undefined` nor `false` (a boolean
 * check resolves with `true`), checked now, every `intervalMs` and on each change of `wake`;
 * rejects with "timed out after N ms waiting for <what>" after `timeoutMs`, or with what `check`
 * throws. A number for `options` is the timeout.
 */
export function waitFor<T>(
  check: () => T | undefined | false,
  what: string,
  options: WaitOptions | number = {},
): Promise<Exclude<T, undefined | false>> {
  const {
    timeoutMs = 15_000,
    intervalMs = 5,
    wake,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    // Set once the first check has failed; finish() may run before that.
    let timer: NodeJS.Timeout | undefined = undefined;
    const finish = (): void => {
      clearInterval(timer);
      wake?.off('change', attempt);
    };
    function attempt(): boolean {
      let value: T | undefined | false;
      try {
        value = check();
      } catch (error) {
        finish();
        reject(error instanceof Error ? error : new Error(String(error)));
        return true;
      }
      if (value !== undefined && value !== false) {
        finish();
        resolve(value as Exclude<T, undefined | false>);
        return true;
      }
      if (Date.now() - started >= timeoutMs) {
        finish();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
        return true;
      }
      return false;
    }
    if (attempt()) return;
    timer = setInterval(attempt, intervalMs);
    wake?.on('change', attempt);
  });
}
