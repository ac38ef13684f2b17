import type { FastifyInstance } from 'fastify';
import { staffApi } from '@ts/contract';
import type { AppDeps } from '../../deps.ts';
import { PUBLIC, serve, staffRoles } from '../../plugins/endpoint.ts';
import {
  createStaffAccount,
  issueSetPasswordLink,
  listStaffAccounts,
  updateStaffAccount,
} from './staff-accounts.service.ts';
import { changeStaffPassword, setStaffPassword } from './staff-passwords.service.ts';

// Per address and process, on top of the per-account limit the services keep in the database.
const PASSWORD_RATE_LIMIT = { max: 10, timeWindow: '15 minutes' };
const SET_PASSWORD_RATE_LIMIT = { max: 20, timeWindow: '15 minutes' };

export function registerStaffRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps;

  serve(
    app,
    staffApi.changePassword,
    staffRoles(...staffApi.changePassword.staffRoles),
    async ({ body, auth, request }) => {
      await changeStaffPassword(db, { clock, auth, ip: request.ip }, body);
      return { status: 'SUCCESS' as const };
    },
    { rateLimit: PASSWORD_RATE_LIMIT },
  );

  serve(app, staffApi.list, staffRoles(...staffApi.list.staffRoles), async () => listStaffAccounts(db));

  serve(app, staffApi.create, staffRoles(...staffApi.create.staffRoles), async ({ body, auth, request }) =>
    createStaffAccount(deps, { log: request.log, actorId: auth.staffId }, body),
  );

  serve(app, staffApi.update, staffRoles(...staffApi.update.staffRoles), async ({ params, body, auth }) =>
    updateStaffAccount(deps, { actorId: auth.staffId }, { ...body, id: params.id }),
  );

  serve(
    app,
    staffApi.issueSetPasswordLink,
    staffRoles(...staffApi.issueSetPasswordLink.staffRoles),
    async ({ params, auth, request }) =>
      issueSetPasswordLink(deps, { log: request.log, actorId: auth.staffId }, { id: params.id }),
  );

  serve(
    app,
    staffApi.setPassword,
    PUBLIC,
    async ({ body }) => {
      await setStaffPassword(db, clock, body);
      return { status: 'SUCCESS' as const };
    },
    { rateLimit: SET_PASSWORD_RATE_LIMIT },
  );
}
