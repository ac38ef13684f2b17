import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { Id, IdParam } from './primitives.ts';

/** Seat time (decision 012): heartbeats and the time still required. */

const SeatTimeTotalSchema = z.object({
  /** What the student's profile asks for, in seconds (0 when it asks nothing). */
  requiredSeconds: z.number().int().min(0),
  /** Counted so far: the sum of the server's ledger. */
  countedSeconds: z.number().int().min(0),
  /** max(0, required - counted). */
  remainingSeconds: z.number().int().min(0),
});

export const SeatTimeStatusSchema = z.object({
  /**
   * false under a profile with no minimum time (the default): the browser sends no heartbeats
   * and shows nothing of seat time.
   */
  required: z.boolean(),
  /** The module asked about, or null when none was. */
  module: SeatTimeTotalSchema.extend({ moduleId: z.number().int() }).nullable(),
  /** The module's chapter (or the chapter asked about), or null when neither was asked. */
  chapter: SeatTimeTotalSchema.extend({ chapterId: z.number().int() }).nullable(),
  /** The whole course, towards the minimum before the final exam. */
  course: SeatTimeTotalSchema,
  /** Counted today (the school's calendar day), towards the daily cap. */
  todayCountedSeconds: z.number().int().min(0),
  /** The most counted per school day, or null when the profile has no cap. */
  dailyCapSeconds: z.number().int().positive().nullable(),
  /** How often the page should send a heartbeat while the student is active. */
  heartbeatSeconds: z.number().int().positive(),
  /**
   * true when an identity check waits for the student's answer or is due (or the course is
   * locked): the page asks for the check at once instead of waiting for its next poll.
   */
  identityCheckDue: z.boolean(),
});
export type SeatTimeStatus = z.infer<typeof SeatTimeStatusSchema>;

/** The module page says the student is active on a module; the server counts the time itself. */
const recordHeartbeat = defineEndpoint({
  method: 'POST',
  path: '/api/students/heartbeat',
  body: z.object({ studentId: Id, moduleId: Id }),
  errors: ['NOT_FOUND', 'CHAPTER_LOCKED'],
  response: SeatTimeStatusSchema,
});

/** The time counted and still required: for a module (and its chapter), a chapter, and the course. */
const getSeatTime = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/seat-time',
  params: z.object({ id: IdParam }),
  query: z.object({
    moduleId: IdParam.optional(),
    /** A chapter without a module (the chapter page and its quiz); ignored when moduleId is given. */
    chapterId: IdParam.optional(),
  }),
  errors: ['NOT_FOUND'],
  response: SeatTimeStatusSchema,
});

/** The calls of the server's seatTime feature. */
export const seatTimeApi = {
  heartbeat: recordHeartbeat,
  get: getSeatTime,
} as const;
