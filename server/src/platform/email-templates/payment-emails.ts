import { type Email, type EmailLanguage, inLanguage, type SchoolDetails } from './email.ts';

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

/** The receipt for a card payment, sent once the provider says it succeeded. */
export function paymentReceiptEmail(data: PaymentReceiptData, language: EmailLanguage): Email {
  const { school } = data;
  const amount = (lang: EmailLanguage) => money(data.amountCents, data.currency, lang);
  const date = (lang: EmailLanguage) => day(data.at, data.timeZone, lang);
  return inLanguage(language, {
    en: {
      subject: `Your receipt from ${school.name} (${amount('en')})`,
      text:
        `Hello ${data.studentName},\n\n` +
        `Thank you for your payment. This is your receipt.\n\n` +
        `Receipt number: P-${String(data.reference)}\n` +
        `Date: ${date('en')}\n` +
        `Amount paid: ${amount('en')}\n` +
        (data.cardLast4 ? `Paid by card ending in ${data.cardLast4}\n` : '') +
        `For: the traffic school course for the ${data.courtName}\n\n` +
        `Questions about this payment? Write to ${school.supportEmail}.\n\n${school.name}\n${school.publicUrl}\n`,
    },
    es: {
      subject: `Su recibo de ${school.name} (${amount('es')})`,
      text:
        `Hola, ${data.studentName}:\n\n` +
        `Gracias por su pago. Este es su recibo.\n\n` +
        `Número de recibo: P-${String(data.reference)}\n` +
        `Fecha: ${date('es')}\n` +
        `Monto pagado: ${amount('es')}\n` +
        (data.cardLast4 ? `Pagado con la tarjeta que termina en ${data.cardLast4}\n` : '') +
        `Concepto: el curso de escuela de tránsito para ${data.courtName}\n\n` +
        `¿Tiene preguntas sobre este pago? Escriba a ${school.supportEmail}.\n\n${school.name}\n${school.publicUrl}\n`,
    },
  });
}

/** The receipt for money returned on a card payment, made by staff or in the provider's dashboard. */
export function refundReceiptEmail(
  data: PaymentReceiptData & {
    /** The payment the refund returns money on (its receipt number). */
    paymentReference: number;
    /** Whether the refund closed the course (a full refund before it was finished). */
    courseClosed: boolean;
  },
  language: EmailLanguage,
): Email {
  const { school } = data;
  const amount = (lang: EmailLanguage) => money(data.amountCents, data.currency, lang);
  const date = (lang: EmailLanguage) => day(data.at, data.timeZone, lang);
  return inLanguage(language, {
    en: {
      subject: `Your refund from ${school.name} (${amount('en')})`,
      text:
        `Hello ${data.studentName},\n\n` +
        `We have refunded ${amount('en')} of your payment P-${String(data.paymentReference)}.\n\n` +
        `Refund number: R-${String(data.reference)}\n` +
        `Date: ${date('en')}\n` +
        `Amount refunded: ${amount('en')}\n` +
        (data.cardLast4 ? `Returned to the card ending in ${data.cardLast4}\n` : '') +
        `For: the traffic school course for the ${data.courtName}\n` +
        `Your bank usually shows the refund within 5 to 10 business days.\n` +
        (data.courseClosed
          ? `\nWith this refund your course is closed and you can no longer sign in to it. If you still need to complete traffic school for your court, you can register again.\n`
          : '') +
        `\nQuestions about this refund? Write to ${school.supportEmail}.\n\n${school.name}\n${school.publicUrl}\n`,
    },
    es: {
      subject: `Su reembolso de ${school.name} (${amount('es')})`,
      text:
        `Hola, ${data.studentName}:\n\n` +
        `Le reembolsamos ${amount('es')} de su pago P-${String(data.paymentReference)}.\n\n` +
        `Número de reembolso: R-${String(data.reference)}\n` +
        `Fecha: ${date('es')}\n` +
        `Monto reembolsado: ${amount('es')}\n` +
        (data.cardLast4 ? `Devuelto a la tarjeta que termina en ${data.cardLast4}\n` : '') +
        `Concepto: el curso de escuela de tránsito para ${data.courtName}\n` +
        `Su banco suele mostrar el reembolso en un plazo de 5 a 10 días hábiles.\n` +
        (data.courseClosed
          ? `\nCon este reembolso su curso queda cerrado y ya no puede iniciar sesión en él. Si todavía necesita completar la escuela de tránsito para su tribunal, puede inscribirse de nuevo.\n`
          : '') +
        `\n¿Tiene preguntas sobre este reembolso? Escriba a ${school.supportEmail}.\n\n${school.name}\n${school.publicUrl}\n`,
    },
  });
}
