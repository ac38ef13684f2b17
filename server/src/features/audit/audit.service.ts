import { count, desc, eq } from 'drizzle-orm';
import type { AuditEntry } from '@ts/contract';
import type { Db } from '../../db/client.ts';
import { auditLog, staff } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';

/** Every kind of change staff make, as written to the audit log (decision 011). */
export type AuditAction =
  | 'mark_paid'
  | 'issue_certificate'
  | 'resend_delivery'
  | 'enrol_student'
  | 'edit_question'
  | 'edit_answer'
  | 'change_password'
  | 'create_staff'
  | 'update_staff'
  | 'issue_set_password_link'
  | 'unlock_course'
  | 'grant_extra_attempt'
  | 'extend_completion_window'
  | 'export_state_filing'
  | 'mark_state_filing_filed'
  | 'mark_state_filing_rejected'
  | 'acknowledge_certificate'
  | 'request_correction'
  | 'approve_correction'
  | 'reject_correction'
  | 'update_contact'
  | 'reset_personal_questions'
  /** Decision 058: a card payment refunded, with its amount and the reason staff gave. */
  | 'refund_payment';

export interface AuditRecord {
  staffId: number;
  action: AuditAction;
  entityType: 'student' | 'certificate' | 'delivery' | 'question' | 'answer' | 'staff' | 'state_filing' | 'correction';
  entityId: number | null;
  /** The record as it was (null for a creation); never a secret such as a password hash. */
  before: unknown;
  /** The record as it is now. */
  after: unknown;
}

/**
 * Writes one audit entry. Call it with the transaction that makes the change, so the change
 * and its record are committed together or not at all.
 */
export async function recordAudit(tx: Db, clock: Clock, record: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    staffId: record.staffId,
    action: record.action,
    entityType: record.entityType,
    entityId: record.entityId,
    before: record.before ?? null,
    after: record.after ?? null,
    createdAt: clock.now(),
  });
}

export const AUDIT_PAGE_SIZE = 50;

/** The audit log, newest first, a page at a time (pages start at 1). */
export async function listAuditLog(
  db: Db,
  page: number,
): Promise<{ rows: AuditEntry[]; total: number; page: number; pageSize: number }> {
  const rows = await db
    .select({ entry: auditLog, staffName: staff.name, staffUsername: staff.username })
    .from(auditLog)
    .innerJoin(staff, eq(staff.id, auditLog.staffId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  const [totals] = await db.select({ n: count() }).from(auditLog);
  return {
    rows: rows.map(({ entry, staffName, staffUsername }) => ({
      id: entry.id,
      at: entry.createdAt.toISOString(),
      staff_id: entry.staffId,
      staff_name: staffName,
      staff_username: staffUsername,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      before: entry.before ?? null,
      after: entry.after ?? null,
    })),
    total: totals?.n ?? 0,
    page,
    pageSize: AUDIT_PAGE_SIZE,
  };
}
