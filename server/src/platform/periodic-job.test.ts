import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob } from './periodic-job.ts';

describe('startPeriodicJob', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a round at once and then every interval', async () => {
    vi.useFakeTimers();
    const round = vi.fn(() => Promise.resolve());
    const job = startPeriodicJob(round, 1_000, () => {});
    expect(round).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(round).toHaveBeenCalledTimes(4);
    await job.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(round).toHaveBeenCalledTimes(4);
  });

  it('never starts a round while the last one runs, and waits for it on stop', async () => {
    vi.useFakeTimers();
    let finish = () => {};
    const round = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const job = startPeriodicJob(round, 1_000, () => {});
    await vi.advanceTimersByTimeAsync(5_000);
    expect(round).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('hands a failed round to onError and tries again at the next tick', async () => {
    vi.useFakeTimers();
    const failure = new Error('mail server down');
    const round = vi.fn().mockRejectedValueOnce(failure).mockResolvedValue(undefined);
    const onError = vi.fn();
    const job = startPeriodicJob(round, 1_000, onError);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(onError).toHaveBeenCalledWith(failure);
    expect(round).toHaveBeenCalledTimes(2);
    await job.stop();
  });
});
