import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';
import { IdParam } from './primitives.ts';

/**
 * Reminders before the court's due date and the end of the completion window (decision 059):
 * the student's own setting. Reminders are on unless the student turns them off.
 */
export const ReminderSettingSchema = z.object({
  /** true: the school emails the student a week and two days before each date. */
  remindersOn: z.boolean(),
});
export type ReminderSetting = z.infer<typeof ReminderSettingSchema>;

/** The signed-in student's setting. */
const getReminderSetting = defineEndpoint({
  method: 'GET',
  path: '/api/students/:id/reminders',
  params: z.object({ id: IdParam }),
  errors: ['NOT_FOUND'],
  response: ReminderSettingSchema,
});

/** The signed-in student turns their reminders on or off. */
const setReminderSetting = defineEndpoint({
  method: 'PUT',
  path: '/api/students/:id/reminders',
  params: z.object({ id: IdParam }),
  body: ReminderSettingSchema,
  errors: ['NOT_FOUND'],
  response: ReminderSettingSchema,
});

/** The calls of the server's reminders feature. */
export const remindersApi = {
  getSetting: getReminderSetting,
  setSetting: setReminderSetting,
} as const;
