import { describe, expect, it } from 'vitest';
import { createLoadGauge } from './event-loop-load.ts';

describe('the event loop load gauge', () => {
  // The loop's running totals in ms, moved by hand.
  const loop = { idle: 1000, active: 1000 };
  const totals = () => ({ ...loop });

  it('says busy when the loop worked more than its share of the time since the mark', () => {
    const gauge = createLoadGauge(0.8, totals);
    loop.active += 900;
    loop.idle += 100;
    expect(gauge.busy()).toBe(true);
  });

  it('measures from the last mark only, and says not busy when the loop mostly waited', () => {
    const gauge = createLoadGauge(0.8, totals);
    loop.active += 5000;
    gauge.mark();
    loop.active += 300;
    loop.idle += 700;
    expect(gauge.busy()).toBe(false);
  });

  it('says not busy when no time has passed since the mark', () => {
    const gauge = createLoadGauge(0.8, totals);
    expect(gauge.busy()).toBe(false);
  });

  it("reads this process's own loop by default", () => {
    const gauge = createLoadGauge(0.8);
    const until = performance.now() + 30;
    while (performance.now() < until) {
      // The loop works and never waits.
    }
    expect(gauge.busy()).toBe(true);
  });
});
