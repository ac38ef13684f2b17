/** A job started with the server and stopped on close. */
export interface PeriodicJob {
  /** Stops the timer and waits for a round in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs `round` now and then every `intervalMs`, one round at a time: a slow round (a slow mail
 * server, a long purge) is never overlapped by the next; the ticks that fall inside it are
 * skipped. A failed round is handed to `onError` and the next tick tries again.
 */
export function startPeriodicJob(
  round: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): PeriodicJob {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = round()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
