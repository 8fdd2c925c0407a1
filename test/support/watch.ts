/** Long enough for a loaded machine, short enough that a wait that cannot end fails before the test's own timeout. */
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * State a test waits on through the event that changes it, not by polling: its owner calls
 * `changed()` after each change, and `until(condition)` resolves at the first change after which
 * the condition holds.
 */
export class Watch {
  private readonly checks = new Set<() => void>();

  /** Re-checks every waiting condition: call it after each change of the watched state. */
  changed(): void {
    for (const check of [...this.checks]) check();
  }

  /** Resolves once `condition` holds (at once if it does now); past `timeoutMs` it rejects, saying `what` was awaited. */
  until(condition: () => boolean, what: string | (() => string), timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const end = (): void => {
        clearTimeout(timer);
        this.checks.delete(check);
      };
      const check = (): void => {
        let holds: boolean;
        try {
          holds = condition();
        } catch (error) {
          end();
          reject(error as Error);
          return;
        }
        if (!holds) return;
        end();
        resolve();
      };
      const timer = setTimeout(() => {
        end();
        reject(new Error(`waited ${timeoutMs} ms for ${typeof what === 'string' ? what : what()}`));
      }, timeoutMs);
      this.checks.add(check);
    });
  }
}
