import { type EventLoopUtilization, performance } from 'node:perf_hooks';

/**
 * How busy this process has been serving requests, for background work that can wait (decision 031):
 * the share of time its event loop spent working since the last mark. The background job marks
 * when it finishes its own work, so what it measures next is the requests' load, not its own.
 */
export interface LoadGauge {
  /** Whether the event loop worked more than the gauge's share of the time since the last mark. */
  busy(): boolean;
  mark(): void;
}

/** Node's running totals of the event loop's idle and active time (performance.eventLoopUtilization). */
type LoopTotals = () => Pick<EventLoopUtilization, 'idle' | 'active'>;

export function createLoadGauge(
  busyShare = 0.8,
  totals: LoopTotals = () => performance.eventLoopUtilization(),
): LoadGauge {
  let marked = totals();
  return {
    busy() {
      const now = totals();
      const active = now.active - marked.active;
      const idle = now.idle - marked.idle;
      return active + idle > 0 && active / (active + idle) > busyShare;
    },
    mark() {
      marked = totals();
    },
  };
}
