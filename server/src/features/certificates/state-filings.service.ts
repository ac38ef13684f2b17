import { and, desc, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { MarkStateFiling, StateFiling, StateFilingRow, StateFilingsOverview } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import {
  certificateDeliveries,
  certificates,
  counties,
  courts,
  staff,
  stateFilingCertificates,
  stateFilings,
  students,
} from '../../db/schema.ts';
import { type Clock, isoToUs } from '../../platform/clock.ts';
import { AppError, notFound } from '../../plugins/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { getPinnedProfile } from '../rules/rules.service.ts';
import { courtCopyAddress } from './court-copy.ts';

/**
 * The state filing path (decision 024) of certificates a profile holds for the
 * state's report (routing held_for_state_report). Staff export the waiting certificates of a
 * state as one batch, send its CSV to the state, and record the state's answer: filed, with its
 * confirmation reference (then the court is emailed where the profile says so), or rejected
 * (its certificates wait again for a new batch). Every step is audited; nothing is deleted.
 */

/** A held certificate's state: the state of the court that sent the student. */
const certificateState = counties.state;

/** The batches a certificate is in that still count: an open (exported) one or a filed one. */
const inLiveBatch = (certificateId: typeof certificates.id) =>
  sql`exists (select 1 from ${stateFilingCertificates} sfc join ${stateFilings} sf on sf.id = sfc.filing_id
    where sfc.certificate_id = ${certificateId} and sf.status in ('exported', 'filed'))`;

function heldCertificatesQuery(db: Db) {
  return db
    .select({
      certificateId: certificates.id,
      number: certificates.number,
      completionDate: certificates.completionDate,
      rulesProfileId: certificates.rulesProfileId,
      rulesProfileVersion: certificates.rulesProfileVersion,
      studentId: students.id,
      firstName: students.firstName,
      lastName: students.lastName,
      dlNumber: students.dlNumber,
      licenceState: students.state,
      dob: students.dob,
      caseNumber: students.caseNumber,
      court: courts.name,
      state: certificateState,
    })
    .from(certificates)
    .innerJoin(students, eq(students.id, certificates.studentId))
    .innerJoin(courts, eq(courts.id, students.courtId))
    .innerJoin(counties, eq(counties.id, courts.countyId));
}
type HeldCertificate = Awaited<ReturnType<ReturnType<typeof heldCertificatesQuery>['execute']>>[number];

/** A row of the report: the profile named as a court reads it (its public name), never its id. */
async function toRows(
  db: Db,
  held: HeldCertificate[],
  statusOf: (certificateId: number) => StateFilingRow['status'],
): Promise<StateFilingRow[]> {
  const names = new Map<string, string>();
  for (const row of held) {
    const key = `${row.rulesProfileId}@${String(row.rulesProfileVersion)}`;
    if (!names.has(key)) {
      const profile = await getPinnedProfile(db, { id: row.rulesProfileId, version: row.rulesProfileVersion });
      names.set(key, profile.rules.name.en);
    }
  }
  return held.map((row) => {
    return {
      certificate_id: row.certificateId,
      certificate_number: row.number,
      student_id: row.studentId,
      licence_number: row.dlNumber,
      licence_state: row.licenceState,
      last_name: row.lastName,
      first_name: row.firstName,
      date_of_birth: isoToUs(row.dob),
      court: row.court,
      case_number: row.caseNumber ?? '',
      completion_date: row.completionDate,
      course_profile: names.get(`${row.rulesProfileId}@${String(row.rulesProfileVersion)}`) ?? row.rulesProfileId,
      profile_version: row.rulesProfileVersion,
      status: statusOf(row.certificateId),
    };
  });
}

/** The held certificates of a state not in an open or filed batch: what the next export takes. */
async function findWaitingCertificates(db: Db, state: string): Promise<HeldCertificate[]> {
  return heldCertificatesQuery(db)
    .where(
      and(
        eq(certificates.routing, 'held_for_state_report'),
        eq(certificateState, state),
        // A certificate replaced by a correction is not filed; its replacement is.
        isNull(certificates.supersededAt),
        sql`not ${inLiveBatch(certificates.id)}`,
      ),
    )
    .orderBy(certificates.id);
}

function presentFiling(
  row: typeof stateFilings.$inferSelect & { exportedBy: string; certificates: number },
): StateFiling {
  return {
    id: row.id,
    state: row.state,
    status: row.status,
    exported_at: row.exportedAt.toISOString(),
    exported_by: row.exportedBy,
    filed_at: row.filedAt?.toISOString() ?? null,
    confirmation_reference: row.confirmationReference,
    rejected_at: row.rejectedAt?.toISOString() ?? null,
    rejection_reason: row.rejectionReason,
    certificates: row.certificates,
  };
}

function filingsQuery(db: Db) {
  return db
    .select({
      filing: stateFilings,
      exportedBy: staff.name,
      certificates: sql<number>`(select count(*)::int from ${stateFilingCertificates} sfc where sfc.filing_id = ${stateFilings.id})`,
    })
    .from(stateFilings)
    .innerJoin(staff, eq(staff.id, stateFilings.exportedByStaffId));
}

async function getFiling(db: Db, id: number): Promise<StateFiling> {
  const [row] = await filingsQuery(db).where(eq(stateFilings.id, id));
  if (!row) throw notFound('No such state filing.');
  return presentFiling({ ...row.filing, exportedBy: row.exportedBy, certificates: row.certificates });
}

/** The state filings page: the states with held certificates, and one state's waiting certificates and batches. */
export async function getStateFilingsOverview(db: Db, requested: string | undefined): Promise<StateFilingsOverview> {
  const states = (
    await db
      .selectDistinct({ state: certificateState })
      .from(certificates)
      .innerJoin(students, eq(students.id, certificates.studentId))
      .innerJoin(courts, eq(courts.id, students.courtId))
      .innerJoin(counties, eq(counties.id, courts.countyId))
      .where(eq(certificates.routing, 'held_for_state_report'))
      .orderBy(certificateState)
  ).map((row) => row.state);
  const state = requested ?? states[0] ?? null;
  if (state === null) return { states, state, waiting: [], filings: [] };
  const waiting = await findWaitingCertificates(db, state);
  const rejected = new Set(
    waiting.length === 0
      ? []
      : (
          await db
            .select({ id: stateFilingCertificates.certificateId })
            .from(stateFilingCertificates)
            .where(
              inArray(
                stateFilingCertificates.certificateId,
                waiting.map((row) => row.certificateId),
              ),
            )
        ).map((row) => row.id),
  );
  const filings = await filingsQuery(db).where(eq(stateFilings.state, state)).orderBy(desc(stateFilings.id));
  return {
    states,
    state,
    waiting: await toRows(db, waiting, (id) => (rejected.has(id) ? 'rejected' : 'not_filed')),
    filings: filings.map((row) =>
      presentFiling({ ...row.filing, exportedBy: row.exportedBy, certificates: row.certificates }),
    ),
  };
}

/** A batch and its certificates, each line as it was exported: what its CSV holds. */
export async function getStateFilingWithRows(db: Db, id: number): Promise<StateFiling & { rows: StateFilingRow[] }> {
  const filing = await getFiling(db, id);
  const stored = await db
    .select({ row: stateFilingCertificates.row })
    .from(stateFilingCertificates)
    .where(eq(stateFilingCertificates.filingId, id))
    .orderBy(stateFilingCertificates.certificateId);
  const status = filing.status === 'filed' ? 'filed' : filing.status === 'rejected' ? 'rejected' : 'exported';
  return {
    ...filing,
    rows: stored.flatMap(({ row }) => (row ? [{ ...(row as StateFilingRow), status }] : [])),
  };
}

/** Exports every waiting certificate of the state as one new batch; two exports at once make one. */
export async function exportStateFiling(
  db: Db,
  clock: Clock,
  input: { staffId: number; state: string },
): Promise<StateFiling> {
  const id = await db.transaction(async (tx) => {
    // One export per state at a time, so a double click cannot put a certificate in two batches.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('state_filing'), hashtext(${input.state}))`);
    const waiting = await findWaitingCertificates(tx, input.state);
    if (waiting.length === 0) {
      throw new AppError('NOTHING_TO_FILE', 'No certificate is waiting to be filed with this state.');
    }
    const [filing] = await tx
      .insert(stateFilings)
      .values({ state: input.state, status: 'exported', exportedByStaffId: input.staffId, exportedAt: clock.now() })
      .returning({ id: stateFilings.id });
    if (!filing) throw new Error('state filing was not saved');
    const lines = await toRows(tx, waiting, () => 'exported');
    await tx
      .insert(stateFilingCertificates)
      .values(lines.map((line) => ({ filingId: filing.id, certificateId: line.certificate_id, row: line })));
    await recordAudit(tx, clock, {
      staffId: input.staffId,
      action: 'export_state_filing',
      entityType: 'state_filing',
      entityId: filing.id,
      before: null,
      after: { state: input.state, certificates: waiting.map((row) => row.number) },
    });
    return filing.id;
  });
  return getFiling(db, id);
}

/**
 * Records the state's answer to an exported batch, once (FILING_CLOSED after). Filed: where the
 * certificate's profile asks for it (courtCopyAddress), the court's copy is queued for the
 * delivery worker in the same transaction.
 */
export async function markStateFiling(
  db: Db,
  clock: Clock,
  input: { staffId: number; id: number; outcome: MarkStateFiling },
): Promise<StateFiling> {
  await db.transaction(async (tx) => {
    const [filing] = await tx.select().from(stateFilings).where(eq(stateFilings.id, input.id)).for('update');
    if (!filing) throw notFound('No such state filing.');
    if (filing.status !== 'exported') {
      throw new AppError('FILING_CLOSED', 'This batch has already been marked filed or rejected.');
    }
    const now = clock.now();
    const change =
      input.outcome.outcome === 'filed'
        ? {
            status: 'filed' as const,
            filedAt: now,
            confirmationReference: input.outcome.confirmation_reference,
          }
        : { status: 'rejected' as const, rejectedAt: now, rejectionReason: input.outcome.reason };
    await tx
      .update(stateFilings)
      .set({ ...change, closedByStaffId: input.staffId })
      .where(eq(stateFilings.id, input.id));
    if (change.status === 'filed') await queueCourtCopies(tx, now, input.id);
    await recordAudit(tx, clock, {
      staffId: input.staffId,
      action: change.status === 'filed' ? 'mark_state_filing_filed' : 'mark_state_filing_rejected',
      entityType: 'state_filing',
      entityId: input.id,
      before: { status: filing.status },
      after:
        input.outcome.outcome === 'filed'
          ? { status: 'filed', confirmation_reference: input.outcome.confirmation_reference }
          : { status: 'rejected', reason: input.outcome.reason },
    });
  });
  return getFiling(db, input.id);
}

/** The court's copy of each certificate of a filed batch whose profile sends one after filing (courtCopyAddress). */
async function queueCourtCopies(tx: Db, now: Date, filingId: number): Promise<void> {
  const rows = await tx
    .select({
      certificateId: certificates.id,
      profileId: certificates.rulesProfileId,
      profileVersion: certificates.rulesProfileVersion,
      courtEmail: courts.email,
    })
    .from(stateFilingCertificates)
    .innerJoin(certificates, eq(certificates.id, stateFilingCertificates.certificateId))
    .innerJoin(students, eq(students.id, certificates.studentId))
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(
      and(
        eq(stateFilingCertificates.filingId, filingId),
        // A certificate replaced by a correction since the export is not sent (decision 041).
        isNull(certificates.supersededAt),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(certificateDeliveries)
            .where(
              and(
                eq(certificateDeliveries.certificateId, certificates.id),
                eq(certificateDeliveries.recipient, 'court'),
              ),
            ),
        ),
      ),
    );
  for (const row of rows) {
    const profile = await getPinnedProfile(tx, { id: row.profileId, version: row.profileVersion });
    const email = courtCopyAddress(profile.rules.certificate, 'filed_with_state', row.courtEmail);
    if (email === null) continue;
    await tx
      .insert(certificateDeliveries)
      .values({
        certificateId: row.certificateId,
        recipient: 'court',
        email,
        status: 'queued',
        nextAttemptAt: now,
        queuedAt: now,
      })
      .onConflictDoNothing();
  }
}

/** When each of these certificates was filed with the state (only filed batches count). */
export async function findStateFilingDates(db: Db, certificateIds: number[]): Promise<Map<number, Date>> {
  if (certificateIds.length === 0) return new Map();
  const rows = await db
    .select({ certificateId: stateFilingCertificates.certificateId, filedAt: stateFilings.filedAt })
    .from(stateFilingCertificates)
    .innerJoin(stateFilings, eq(stateFilings.id, stateFilingCertificates.filingId))
    .where(and(inArray(stateFilingCertificates.certificateId, certificateIds), eq(stateFilings.status, 'filed')));
  return new Map(rows.flatMap((row) => (row.filedAt ? [[row.certificateId, row.filedAt] as const] : [])));
}
