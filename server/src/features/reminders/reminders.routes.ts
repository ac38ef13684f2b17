import type { FastifyInstance } from 'fastify';
import { remindersApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { serve, STUDENT } from '../../plugins/endpoint.ts';
import { assertOwnRecord } from '../../plugins/policies.ts';
import { getReminderSetting, setReminderSetting } from './reminder-settings.service.ts';

export function registerReminderRoutes(app: FastifyInstance, { db }: AppDeps): void {
  // The student's own setting only (403 for another's); paid or not, as their home page shows it.
  serve(app, remindersApi.getSetting, STUDENT, async ({ params, auth }) => {
    assertOwnRecord(auth, params.id);
    return getReminderSetting(db, auth.studentId);
  });

  serve(app, remindersApi.setSetting, STUDENT, async ({ params, body, auth }) => {
    assertOwnRecord(auth, params.id);
    return setReminderSetting(db, { studentId: auth.studentId, setting: body });
  });
}
