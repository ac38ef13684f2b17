import { and, count, desc, eq, gte, ilike, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { COURT_COMPLETIONS_PAGE_SIZE, type CourtCompletion } from '@ts/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { foldedNameContains } from '../../db/last-names.ts';
import { certificateDeliveries, certificates, students } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { courtReceiptEmail } from '../../platform/email-templates/certificate-emails.tsx';
import { schoolDetails } from '../../platform/email-templates/email.ts';
import { describeMailFailure, type Mailer } from '../../platform/mail/mailer.ts';
import { notFound } from '../../plugins/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';

/**
 * The court's view of its drivers' completions (decision 025). Rows are the current
 * certificates (a superseded one is replaced by its correction) of the court's students.
 */

/** The court whose rows a caller sees: a court's own staff always their court; others the one asked (all without). */
export type CourtScope = { courtId: number } | { courtId: null };

const courtCopySentAt = sql<Date | null>`(select ${certificateDeliveries.sentAt} from ${certificateDeliveries}
  where ${certificateDeliveries.certificateId} = ${certificates.id} and ${certificateDeliveries.recipient} = 'court')`;

function completionsQuery(db: Db) {
  return db
    .select({
      number: certificates.number,
      firstName: students.firstName,
      lastName: students.lastName,
      dlNumber: students.dlNumber,
      caseNumber: students.caseNumber,
      completionDate: certificates.completionDate,
      courtEmailSentAt: courtCopySentAt.mapWith((value: unknown) => (value ? new Date(String(value)) : null)),
      acknowledgedAt: certificates.acknowledgedAt,
    })
    .from(certificates)
    .innerJoin(students, eq(students.id, certificates.studentId));
}

function present(row: Awaited<ReturnType<ReturnType<typeof completionsQuery>['execute']>>[number]): CourtCompletion {
  return {
    certificate_number: row.number,
    first_name: row.firstName,
    last_name: row.lastName,
    dl_number: row.dlNumber,
    case_number: row.caseNumber,
    completed_at: row.completionDate,
    court_email_sent_at: row.courtEmailSentAt?.toISOString() ?? null,
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
  };
}

/** `%`, `_` and `\` typed in a search are matched as themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

export async function listCourtCompletions(
  db: Db,
  scope: CourtScope,
  query: { from?: string; to?: string; search?: string; page?: number },
): Promise<{ rows: CourtCompletion[]; total: number; page: number; pageSize: number }> {
  const conditions: (SQL | undefined)[] = [
    isNull(certificates.supersededAt),
    scope.courtId === null ? undefined : eq(students.courtId, scope.courtId),
    query.from ? gte(certificates.completionDate, query.from) : undefined,
    query.to ? lte(certificates.completionDate, query.to) : undefined,
  ];
  if (query.search) {
    const pattern = likePattern(query.search);
    conditions.push(
      or(
        // Names are compared folded (decision 064): "hernandez" finds "Hernández".
        foldedNameContains(sql`${students.firstName} || ' ' || ${students.lastName}`, query.search),
        ilike(students.dlNumber, pattern),
        ilike(students.caseNumber, pattern),
        ilike(certificates.number, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const page = query.page ?? 1;
  const [rows, [total]] = await Promise.all([
    completionsQuery(db)
      .where(where)
      .orderBy(desc(certificates.issuedAt), desc(certificates.id))
      .limit(COURT_COMPLETIONS_PAGE_SIZE)
      .offset((page - 1) * COURT_COMPLETIONS_PAGE_SIZE),
    db
      .select({ n: count() })
      .from(certificates)
      .innerJoin(students, eq(students.id, certificates.studentId))
      .where(where),
  ]);
  return { rows: rows.map(present), total: total?.n ?? 0, page, pageSize: COURT_COMPLETIONS_PAGE_SIZE };
}

/**
 * The court's staff acknowledge receipt of a certificate of their court: recorded once (a second
 * call answers the first acknowledgement), audited, and the student told by a short email.
 * Another court's certificate, or a superseded one, does not exist for them (404).
 */
export async function acknowledgeCompletion(
  db: Db,
  deps: { clock: Clock; config: Config; mailer: Mailer; log: { error: (object: object, message: string) => void } },
  input: { staffId: number; courtId: number; number: string },
): Promise<CourtCompletion> {
  const found = await db.transaction(async (tx) => {
    const [certificate] = await tx
      .select({
        id: certificates.id,
        acknowledgedAt: certificates.acknowledgedAt,
        email: students.email,
        firstName: students.firstName,
        language: students.language,
      })
      .from(certificates)
      .innerJoin(students, eq(students.id, certificates.studentId))
      .where(
        and(
          eq(certificates.number, input.number),
          eq(students.courtId, input.courtId),
          isNull(certificates.supersededAt),
        ),
      )
      .for('update', { of: certificates });
    if (!certificate) throw notFound('No such certificate for your court.');
    if (certificate.acknowledgedAt) return { ...certificate, newly: false };
    await tx
      .update(certificates)
      .set({ acknowledgedAt: deps.clock.now(), acknowledgedByStaffId: input.staffId })
      .where(eq(certificates.id, certificate.id));
    await recordAudit(tx, deps.clock, {
      staffId: input.staffId,
      action: 'acknowledge_certificate',
      entityType: 'certificate',
      entityId: certificate.id,
      before: { acknowledged_at: null },
      after: { acknowledged_at: deps.clock.now().toISOString(), number: input.number },
    });
    return { ...certificate, newly: true };
  });
  if (found.newly) {
    // After the commit, once, without waiting for the mail server: the receipt stands whether or
    // not this short notice reaches the student.
    // Rendered in the same chain, so that not even a template's failure undoes the receipt.
    void courtReceiptEmail(
      { school: schoolDetails(deps.config), firstName: found.firstName, certificateNumber: input.number },
      found.language,
    )
      .then((email) =>
        deps.mailer.send({ to: found.email, subject: email.subject, text: email.text, html: email.html }),
      )
      .catch((error: unknown) => {
        // Not the error itself: a mail server's refusal names the recipient (a student's address).
        deps.log.error(
          {
            number: input.number,
            error: describeMailFailure(error),
          },
          'court receipt email to the student failed',
        );
      });
  }
  const [row] = await completionsQuery(db).where(eq(certificates.id, found.id));
  if (!row) throw notFound('No such certificate for your court.');
  return present(row);
}
