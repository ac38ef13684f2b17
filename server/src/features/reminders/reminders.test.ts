import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, seatTimeLedger, students } from '../../db/schema.ts';
import { localDate } from '../../platform/clock.ts';
import { createMailer } from '../../platform/mail/mailer.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../testing/smtp-test-server.ts';
import { sendDueEmails } from '../emails/email-outbox-worker.service.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { moduleIdsOf, recordChapterPassed } from '../../testing/course.ts';
import { archiveStudent } from '../../testing/dashboard-data.ts';
import { createCourt, createStudent, markStudentPaid } from '../../testing/factories.ts';
import { currentProfileVersion } from '../../testing/rules.ts';
import { addDays } from '../rules/completion.service.ts';
import { queueDueReminders, startReminderJob } from './reminders.service.ts';

const DAY = 86_400_000;

describe('reminders before the court due date and the end of the completion window (decision 059)', () => {
  let t: TestApp;
  let smtp: SmtpTestServer;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'school@example.com',
      outboxDir: path.join(os.tmpdir(), 'ts-never-written'),
    });
    t = await buildTestApp({ config: { PUBLIC_URL: 'https://school.example' }, mailer });
  });
  afterAll(async () => {
    await t.close();
    await t.mailer.close();
    await smtp.stop();
  });

  const today = () => localDate(t.clock.now(), t.config.schoolTimeZone);
  const runRound = () => queueDueReminders(t.db, { clock: t.clock, config: t.config });
  const remindersOf = (studentId: number) =>
    t.db.select().from(emailOutbox).where(eq(emailOutbox.studentId, studentId)).orderBy(asc(emailOutbox.id));

  /** A paid student, registered `registeredDaysAgo` days ago, with a court due date `dueInDays` days from today. */
  async function studentDueIn(
    dueInDays: number,
    overrides: Partial<typeof students.$inferInsert> & { registeredDaysAgo?: number } = {},
  ) {
    const { registeredDaysAgo = 20, ...columns } = overrides;
    const student = await createStudent(t.db, {
      courtDueDate: addDays(today(), dueInDays),
      createdAt: new Date(t.clock.now().getTime() - registeredDaysAgo * DAY),
      ...columns,
    });
    await markStudentPaid(t.db, student.id, t.clock.now());
    return student;
  }

  it('queues one reminder a week before the court due date: the date, what is left and a link to continue', async () => {
    const student = await studentDueIn(7);
    await recordChapterPassed(t.db, student.id, 1);
    await recordChapterPassed(t.db, student.id, 2);

    await runRound();

    const [reminder, ...more] = await remindersOf(student.id);
    expect(more).toEqual([]);
    const dueDate = addDays(today(), 7);
    expect(reminder).toMatchObject({
      dedupeKey: `reminder:${String(student.id)}:court:7:${dueDate}`,
      recipient: student.email,
      language: 'en',
      subject: 'Your certificate is due to your court in 7 days',
    });
    const text = reminder?.textBody ?? '';
    // The test clock's day is November 22, 2026 in the school's time zone.
    expect(text).toContain(
      'Your court expects your certificate of completion by November 29, 2026, 7 days from today.',
    );
    const stillToDo = text.slice(text.indexOf('Still to do:'), text.indexOf('Continue where'));
    expect(stillToDo).toMatch(/- Chapter 3: .+\n- Chapter 4: .+\n- The final exam\n/);
    expect(stillToDo).not.toContain('Chapter 1');
    expect(stillToDo).not.toContain('Chapter 2');
    // The default profile counts no seat time: no minutes are mentioned.
    expect(stillToDo).not.toContain('minute');
    expect(text).toContain('Continue where you left off: https://school.example/content/3');
  });

  it('queues it once however often the job runs', async () => {
    const student = await studentDueIn(7);
    await runRound();
    await runRound();
    t.clock.advance(3_600_000);
    await runRound();
    t.clock.advance(-3_600_000);
    expect(await remindersOf(student.id)).toHaveLength(1);
  });

  it('queues it once when two instances start their jobs at the same moment', async () => {
    const student = await studentDueIn(6);
    const quiet = { info: () => {}, error: (object: object) => expect.fail(JSON.stringify(object)) };
    const context = { clock: t.clock, config: t.config };
    const jobs = [startReminderJob(t.db, context, quiet), startReminderJob(t.db, context, quiet)];
    await Promise.all(jobs.map((job) => job.stop()));
    expect((await remindersOf(student.id)).map((row) => row.dedupeKey)).toEqual([
      `reminder:${String(student.id)}:court:7:${addDays(today(), 6)}`,
    ]);
  });

  it('queues the second reminder two days before the date, and nothing on the date or after it', async () => {
    const student = await studentDueIn(7);
    const dueDate = addDays(today(), 7);
    await runRound();
    try {
      t.clock.advance(5 * DAY);
      await runRound();
      t.clock.advance(DAY);
      await runRound();
      t.clock.advance(DAY);
      await runRound();
      t.clock.advance(DAY);
      await runRound();
    } finally {
      t.clock.advance(-8 * DAY);
    }
    const reminders = await remindersOf(student.id);
    expect(reminders.map((row) => row.dedupeKey)).toEqual([
      `reminder:${String(student.id)}:court:7:${dueDate}`,
      `reminder:${String(student.id)}:court:2:${dueDate}`,
    ]);
    expect(reminders[1]?.subject).toBe('Your certificate is due to your court in 2 days');
  });

  it('gives a student who registers 3 days before the date only the 2-day reminder', async () => {
    const student = await studentDueIn(3, { registeredDaysAgo: 0 });
    const dueDate = addDays(today(), 3);
    await runRound();
    expect(await remindersOf(student.id)).toEqual([]);
    try {
      t.clock.advance(DAY);
      await runRound();
    } finally {
      t.clock.advance(-DAY);
    }
    expect((await remindersOf(student.id)).map((row) => row.dedupeKey)).toEqual([
      `reminder:${String(student.id)}:court:2:${dueDate}`,
    ]);
  });

  it('sends a late 7-day reminder the day after an outage, to a student registered before the week began', async () => {
    const student = await studentDueIn(5, { registeredDaysAgo: 10 });
    await runRound();
    expect((await remindersOf(student.id)).map((row) => row.dedupeKey)).toEqual([
      `reminder:${String(student.id)}:court:7:${addDays(today(), 5)}`,
    ]);
  });

  it('says "1 day" the day before a date whose 2-day reminder was missed', async () => {
    const student = await studentDueIn(1);
    await runRound();
    const [reminder] = await remindersOf(student.id);
    expect(reminder?.dedupeKey).toBe(`reminder:${String(student.id)}:court:2:${addDays(today(), 1)}`);
    expect(reminder?.subject).toBe('Your certificate is due to your court in 1 day');
    expect(reminder?.textBody).toContain(', 1 day from today.');
  });

  it('reminds of a moved date on its own: a correction that moves the due date gets the new date its reminder', async () => {
    const student = await studentDueIn(7);
    await runRound();
    await t.db
      .update(students)
      .set({ courtDueDate: addDays(today(), 6) })
      .where(eq(students.id, student.id));
    await runRound();
    expect((await remindersOf(student.id)).map((row) => row.dedupeKey)).toEqual([
      `reminder:${String(student.id)}:court:7:${addDays(today(), 7)}`,
      `reminder:${String(student.id)}:court:7:${addDays(today(), 6)}`,
    ]);
  });

  it('reminds no one who finished, was archived, turned reminders off, has not paid, or whose date has passed', async () => {
    const finished = await studentDueIn(7, { completedAt: t.clock.now() });
    const archived = await studentDueIn(7);
    await archiveStudent(t.db, archived.id, t.clock.now());
    const optedOut = await studentDueIn(2, { remindersOff: true });
    const unpaid = await createStudent(t.db, {
      courtDueDate: addDays(today(), 7),
      createdAt: new Date(t.clock.now().getTime() - 20 * DAY),
    });
    const dueToday = await studentDueIn(0);
    const past = await studentDueIn(-1);

    await runRound();

    for (const student of [finished, archived, optedOut, unpaid, dueToday, past]) {
      expect(await remindersOf(student.id)).toEqual([]);
    }
  });

  it("writes a Spanish student's reminder in Spanish, chapters titled in Spanish", async () => {
    const student = await studentDueIn(2, { language: 'es' });
    await runRound();
    const [reminder] = await remindersOf(student.id);
    expect(reminder?.language).toBe('es');
    expect(reminder?.subject).toBe('Su tribunal espera su certificado dentro de 2 días');
    const text = reminder?.textBody ?? '';
    expect(text).toMatch(/^Hola, Sam:/);
    expect(text).toContain('a más tardar el ');
    expect(text).toMatch(/- Capítulo 1: .+\n/);
    expect(text).toContain('- El examen final');
    expect(text).toContain('Continúe donde se quedó: https://school.example/content/1');
    expect(text).not.toContain('Chapter');
  });

  it('reminds of the end of the window under a profile that counts seat time, with the minutes of study left', async () => {
    // four-hour-identity: 60 days to finish, 240 minutes before the final.
    const court = await createCourt(t.db, { rulesProfileId: 'four-hour-identity' });
    const student = await createStudent(t.db, {
      courtId: court.id,
      rulesProfileId: 'four-hour-identity',
      rulesProfileVersion: currentProfileVersion('four-hour-identity'),
      createdAt: new Date(t.clock.now().getTime() - 53 * DAY),
    });
    await markStudentPaid(t.db, student.id, t.clock.now());
    for (const chapter of [1, 2, 3, 4]) await recordChapterPassed(t.db, student.id, chapter);
    await t.db.insert(seatTimeLedger).values({
      studentId: student.id,
      moduleId: (await moduleIdsOf(t.db, 1))[0] ?? 0,
      chapterId: 1,
      heartbeatAt: t.clock.now(),
      creditedSeconds: 100 * 60 + 30,
      schoolDay: today(),
    });

    await runRound();

    const [reminder, ...more] = await remindersOf(student.id);
    expect(more).toEqual([]);
    const windowEnds = addDays(localDate(new Date(t.clock.now().getTime() - 53 * DAY), t.config.schoolTimeZone), 60);
    expect(reminder?.dedupeKey).toBe(`reminder:${String(student.id)}:window:7:${windowEnds}`);
    expect(reminder?.subject).toBe('7 days left to finish your traffic school course');
    const text = reminder?.textBody ?? '';
    // 240 minutes less 100.5 counted: 139.5, rounded up.
    expect(text).toContain('Still to do:\n- The final exam\n- 2 hours 20 minutes more of study time');
    expect(text).toContain('https://school.example/final');
  });

  it('runs at start as the server does, and stops with it', async () => {
    const student = await studentDueIn(4);
    const logged: object[] = [];
    const log = { info: (object: object) => logged.push(object), error: (object: object) => logged.push(object) };
    const job = startReminderJob(t.db, { clock: t.clock, config: t.config }, log, 3_600_000);
    await job.stop();
    expect(await remindersOf(student.id)).toHaveLength(1);
    expect(logged).toContainEqual({ queued: 1 });
  });

  it('reaches the student through the outbox over SMTP', async () => {
    const student = await studentDueIn(2, { firstName: 'Alma' });
    await runRound();
    await sendDueEmails(t.db, t.clock, t.mailer);
    const received = smtp.messages.filter((message) => message.to.includes(student.email));
    expect(received).toHaveLength(1);
    expect(received[0]?.subject).toBe('Your certificate is due to your court in 2 days');
    expect(received[0]?.text).toContain('Hello Alma,');
  });
});
