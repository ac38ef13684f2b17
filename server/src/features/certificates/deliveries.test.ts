import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadGauge } from '../../platform/event-loop-load.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import {
  createCourseStudent,
  deliveriesOf,
  onlyCertificateOf,
  recordCourseCompletion,
} from '../../testing/certificates.ts';
import { MAX_WAIT_FOR_BUSY_MS, runDeliveryRound } from './deliveries.service.ts';

/** The worker's measure of the instance's load, held at one answer (the real one measures this process). */
function gaugeSaying(busy: boolean): LoadGauge & { marks: number } {
  return {
    marks: 0,
    busy: () => busy,
    mark() {
      this.marks += 1;
    },
  };
}

describe("the delivery worker's round on a busy instance (issue 15)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** A student who completed the course; their certificate's emails (student, court) are queued. */
  async function certifiedStudent() {
    const student = await createCourseStudent(t);
    await recordCourseCompletion(t, student.id);
    return onlyCertificateOf(t.db, student.id);
  }
  const statusesOf = async (certificate: { id: number }) =>
    (await deliveriesOf(t.db, certificate.id)).map((delivery) => delivery.status);

  it('keeps certificate emails waiting while the instance is busy, up to a minute, then sends every due one', async () => {
    const first = await certifiedStudent();
    const busy = gaugeSaying(true);
    expect(await runDeliveryRound(t.db, t.clock, t.config, t.mailer, busy)).toBe(0);
    t.clock.advance(MAX_WAIT_FOR_BUSY_MS - 1000);
    expect(await runDeliveryRound(t.db, t.clock, t.config, t.mailer, busy)).toBe(0);
    expect(await statusesOf(first)).toEqual(['queued', 'queued']);
    const second = await certifiedStudent();
    t.clock.advance(2000);
    expect(await runDeliveryRound(t.db, t.clock, t.config, t.mailer, busy)).toBe(4);
    expect(await statusesOf(first)).toEqual(['sent', 'sent']);
    expect(await statusesOf(second)).toEqual(['sent', 'sent']);
    // Each round marks when its own work ends, so the next one measures the requests' load only.
    expect(busy.marks).toBe(3);
  });

  it('sends at once on a quiet instance', async () => {
    const certificate = await certifiedStudent();
    expect(await runDeliveryRound(t.db, t.clock, t.config, t.mailer, gaugeSaying(false))).toBe(2);
    expect(await statusesOf(certificate)).toEqual(['sent', 'sent']);
  });
});
