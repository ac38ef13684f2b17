import { describe, expect, it, vi } from 'vitest';
import { createMetrics } from './metrics.ts';

/** Decision 060: what a scrape shows of the pool and of a database that does not answer. */
describe('createMetrics', () => {
  const backlog = { byStatus: { queued: 3, sent: 40 }, oldestQueuedAgeSeconds: 12.5 };

  it("reports a PostgreSQL pool's connections by state, as the pool counts them at scrape time", async () => {
    const pool = { totalCount: 5, idleCount: 2, waitingCount: 0 };
    const metrics = createMetrics({
      readDeliveryBacklog: () => Promise.resolve(backlog),
      pool,
      onReadFailure: vi.fn(),
    });
    pool.waitingCount = 7;
    const text = await metrics.scrape();
    expect(text).toContain('db_pool_connections{state="total"} 5');
    expect(text).toContain('db_pool_connections{state="idle"} 2');
    expect(text).toContain('db_pool_connections{state="waiting"} 7');
  });

  it('reports every delivery status, a status with none as 0, and the oldest queued age', async () => {
    const metrics = createMetrics({
      readDeliveryBacklog: () => Promise.resolve(backlog),
      pool: null,
      onReadFailure: vi.fn(),
    });
    const text = await metrics.scrape();
    // Lines of their own, after the process's metrics.
    expect(text).toMatch(/^# TYPE certificate_deliveries gauge$/m);
    expect(text).toMatch(/^certificate_deliveries\{status="queued"\} 3$/m);
    expect(text).toContain('certificate_deliveries{status="sent"} 40');
    expect(text).toContain('certificate_deliveries{status="failed"} 0');
    expect(text).toContain('certificate_deliveries{status="cancelled"} 0');
    expect(text).toContain('certificate_delivery_oldest_queued_age_seconds 12.5');
    expect(text).not.toContain('db_pool_connections');
  });

  it('still answers the rest of a scrape when the database cannot be read, without the delivery figures', async () => {
    const failure = new Error('connection terminated');
    const onReadFailure = vi.fn();
    let reads = 0;
    const metrics = createMetrics({
      readDeliveryBacklog: () => (reads++ === 0 ? Promise.resolve(backlog) : Promise.reject(failure)),
      pool: null,
      onReadFailure,
    });
    await metrics.scrape();
    const text = await metrics.scrape();
    expect(onReadFailure).toHaveBeenCalledWith(failure);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).not.toMatch(/^certificate_deliveries\{/m);
    expect(text).not.toMatch(/^certificate_delivery_oldest_queued_age_seconds /m);
  });

  it('keeps each app’s figures in its own registry', async () => {
    const sources = { readDeliveryBacklog: () => Promise.resolve(backlog), pool: null, onReadFailure: vi.fn() };
    const first = createMetrics(sources);
    const second = createMetrics(sources);
    first.observeRequest({ method: 'GET', route: '/api/only-in-the-first', statusCode: 200, seconds: 0.01 });
    expect(await first.scrape()).toContain('route="/api/only-in-the-first"');
    expect(await second.scrape()).not.toContain('route="/api/only-in-the-first"');
  });
});
