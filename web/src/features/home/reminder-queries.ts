import { queryOptions } from '@tanstack/react-query';
import { remindersApi } from '@ts/contract';
import { callApi } from '../../lib/api.ts';

/** The deadline reminders' queries (decision 059). */
export const reminderQueries = {
  /** The signed-in student's own setting (GET /api/students/:id/reminders). */
  setting: (studentId: number) =>
    queryOptions({
      queryKey: ['reminder-setting', studentId],
      queryFn: () => callApi(remindersApi.getSetting, { params: { id: studentId } }),
    }),
};
