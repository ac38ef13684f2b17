import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { courts, payments, refunds, students } from '../../db/schema.ts';
import type { SchoolDetails } from '../../platform/email-templates/email.ts';
import { paymentReceiptEmail, refundReceiptEmail } from '../../platform/email-templates/payment-emails.tsx';
import { queueEmail } from '../emails/email-outbox.service.ts';

/**
 * Receipts (decision 058): a card payment's receipt and a refund's, queued to the student in their
 * language in the transaction that records the money, each once under its key.
 */

/** What a receipt names beside the money: the school (SCHOOL_NAME, its support address) and its clock. */
export interface ReceiptSettings {
  school: SchoolDetails;
  /** SCHOOL_TIME_ZONE: the day a receipt's date is written as. */
  timeZone: string;
}

export const paymentReceiptKey = (paymentId: number) => `receipt:payment:${String(paymentId)}`;
export const refundReceiptKey = (refundId: number) => `refund:${String(refundId)}`;

/** The student a payment is for, with the court the course is taken for. */
async function studentOfPayment(tx: Db, paymentId: number) {
  const [row] = await tx
    .select({
      payment: payments,
      studentId: students.id,
      firstName: students.firstName,
      lastName: students.lastName,
      email: students.email,
      language: students.language,
      archiveReason: students.archiveReason,
      courtName: courts.name,
    })
    .from(payments)
    .innerJoin(students, eq(students.id, payments.studentId))
    .innerJoin(courts, eq(courts.id, students.courtId))
    .where(eq(payments.id, paymentId));
  if (!row) throw new Error(`no payment ${String(paymentId)} to send a receipt for`);
  return row;
}

/** Queues the receipt of a card payment just recorded; false when it was queued already. */
export async function queuePaymentReceipt(tx: Db, settings: ReceiptSettings, paymentId: number): Promise<boolean> {
  const row = await studentOfPayment(tx, paymentId);
  const email = await paymentReceiptEmail(
    {
      school: settings.school,
      studentName: `${row.firstName} ${row.lastName}`,
      reference: row.payment.id,
      amountCents: row.payment.amountCents ?? 0,
      currency: row.payment.currency ?? 'usd',
      at: row.payment.createdAt,
      timeZone: settings.timeZone,
      courtName: row.courtName,
      cardLast4: row.payment.cardLast4,
    },
    row.language,
  );
  return queueEmail(tx, {
    key: paymentReceiptKey(paymentId),
    to: row.email,
    language: row.language,
    studentId: row.studentId,
    ...email,
  });
}

/** Queues the receipt of a refund just recorded; false when it was queued already. */
export async function queueRefundReceipt(
  tx: Db,
  settings: ReceiptSettings,
  input: { refundId: number; courseClosed: boolean },
): Promise<boolean> {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, input.refundId));
  if (!refund) throw new Error(`no refund ${String(input.refundId)} to send a receipt for`);
  const row = await studentOfPayment(tx, refund.paymentId);
  const email = await refundReceiptEmail(
    {
      school: settings.school,
      studentName: `${row.firstName} ${row.lastName}`,
      reference: refund.id,
      paymentReference: row.payment.id,
      amountCents: refund.amountCents,
      currency: refund.currency,
      at: refund.createdAt,
      timeZone: settings.timeZone,
      courtName: row.courtName,
      cardLast4: row.payment.cardLast4,
      courseClosed: input.courseClosed,
    },
    row.language,
  );
  return queueEmail(tx, {
    key: refundReceiptKey(refund.id),
    to: row.email,
    language: row.language,
    studentId: row.studentId,
    ...email,
  });
}
