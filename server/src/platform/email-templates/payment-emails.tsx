// The JSX runtime is named here, not only in a tsconfig: tsx also runs the server from the
// repository's root (the end-to-end server, the benches), where no tsconfig says it (decision 057).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import type { Email, EmailLanguage, SchoolDetails } from './email.ts';
import { EmailLayout, Lines, Paragraph, renderEmail } from './layout.tsx';

/** What a payment's or a refund's receipt says (decision 058). */
export interface PaymentReceiptData {
  school: SchoolDetails;
  studentName: string;
  /** The receipt's own number: the payment's or the refund's id. */
  reference: number;
  amountCents: number;
  /** ISO 4217, lower case as the provider gives it ('usd'). */
  currency: string;
  /** The moment the money moved, written as a date on the school's clock. */
  at: Date;
  /** SCHOOL_TIME_ZONE: the day the date is written as. */
  timeZone: string;
  /** The court the course was taken for. */
  courtName: string;
  /** The last four digits of the card, where the provider gave them. */
  cardLast4: string | null;
}

const LOCALES: Record<EmailLanguage, string> = { en: 'en-US', es: 'es-US' };

function money(cents: number, currency: string, language: EmailLanguage): string {
  return new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );
}

function day(at: Date, timeZone: string, language: EmailLanguage): string {
  return new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'long', timeZone }).format(at);
}

/** The receipt for a card payment, sent once the provider says it succeeded, in the layout of every email (decision 057). */
export function paymentReceiptEmail(data: PaymentReceiptData, language: EmailLanguage): Promise<Email> {
  const { school } = data;
  const amount = money(data.amountCents, data.currency, language);
  const date = day(data.at, data.timeZone, language);
  const reference = `P-${String(data.reference)}`;
  if (language === 'es') {
    return renderEmail(
      `Su recibo de ${school.name} (${amount})`,
      <EmailLayout school={school} language="es">
        <Paragraph>{`Hola, ${data.studentName}:`}</Paragraph>
        <Paragraph>Gracias por su pago. Este es su recibo.</Paragraph>
        <Lines
          lines={[
            `Número de recibo: ${reference}`,
            `Fecha: ${date}`,
            `Monto pagado: ${amount}`,
            ...(data.cardLast4 ? [`Pagado con la tarjeta que termina en ${data.cardLast4}`] : []),
            `Concepto: el curso de escuela de tránsito para ${data.courtName}`,
          ]}
        />
        <Paragraph>{`¿Tiene preguntas sobre este pago? Escriba a ${school.supportEmail}.`}</Paragraph>
      </EmailLayout>,
    );
  }
  return renderEmail(
    `Your receipt from ${school.name} (${amount})`,
    <EmailLayout school={school} language="en">
      <Paragraph>{`Hello ${data.studentName},`}</Paragraph>
      <Paragraph>Thank you for your payment. This is your receipt.</Paragraph>
      <Lines
        lines={[
          `Receipt number: ${reference}`,
          `Date: ${date}`,
          `Amount paid: ${amount}`,
          ...(data.cardLast4 ? [`Paid by card ending in ${data.cardLast4}`] : []),
          `For: the traffic school course for the ${data.courtName}`,
        ]}
      />
      <Paragraph>{`Questions about this payment? Write to ${school.supportEmail}.`}</Paragraph>
    </EmailLayout>,
  );
}

/** What a refund's receipt is given beyond a payment's. */
export interface RefundReceiptData extends PaymentReceiptData {
  /** The payment the refund returns money on (its receipt number). */
  paymentReference: number;
  /** Whether the refund closed the course (a full refund before it was finished). */
  courseClosed: boolean;
}

/** The receipt for money returned on a card payment, made by staff or in the provider's dashboard. */
export function refundReceiptEmail(data: RefundReceiptData, language: EmailLanguage): Promise<Email> {
  const { school } = data;
  const amount = money(data.amountCents, data.currency, language);
  const date = day(data.at, data.timeZone, language);
  const payment = `P-${String(data.paymentReference)}`;
  const reference = `R-${String(data.reference)}`;
  if (language === 'es') {
    return renderEmail(
      `Su reembolso de ${school.name} (${amount})`,
      <EmailLayout school={school} language="es">
        <Paragraph>{`Hola, ${data.studentName}:`}</Paragraph>
        <Paragraph>{`Le reembolsamos ${amount} de su pago ${payment}.`}</Paragraph>
        <Lines
          lines={[
            `Número de reembolso: ${reference}`,
            `Fecha: ${date}`,
            `Monto reembolsado: ${amount}`,
            ...(data.cardLast4 ? [`Devuelto a la tarjeta que termina en ${data.cardLast4}`] : []),
            `Concepto: el curso de escuela de tránsito para ${data.courtName}`,
            'Su banco suele mostrar el reembolso en un plazo de 5 a 10 días hábiles.',
          ]}
        />
        {data.courseClosed ? (
          <Paragraph>
            Con este reembolso su curso queda cerrado y ya no puede iniciar sesión en él. Si todavía necesita completar
            la escuela de tránsito para su tribunal, puede inscribirse de nuevo.
          </Paragraph>
        ) : null}
        <Paragraph>{`¿Tiene preguntas sobre este reembolso? Escriba a ${school.supportEmail}.`}</Paragraph>
      </EmailLayout>,
    );
  }
  return renderEmail(
    `Your refund from ${school.name} (${amount})`,
    <EmailLayout school={school} language="en">
      <Paragraph>{`Hello ${data.studentName},`}</Paragraph>
      <Paragraph>{`We have refunded ${amount} of your payment ${payment}.`}</Paragraph>
      <Lines
        lines={[
          `Refund number: ${reference}`,
          `Date: ${date}`,
          `Amount refunded: ${amount}`,
          ...(data.cardLast4 ? [`Returned to the card ending in ${data.cardLast4}`] : []),
          `For: the traffic school course for the ${data.courtName}`,
          'Your bank usually shows the refund within 5 to 10 business days.',
        ]}
      />
      {data.courseClosed ? (
        <Paragraph>
          With this refund your course is closed and you can no longer sign in to it. If you still need to complete
          traffic school for your court, you can register again.
        </Paragraph>
      ) : null}
      <Paragraph>{`Questions about this refund? Write to ${school.supportEmail}.`}</Paragraph>
    </EmailLayout>,
  );
}
