// The JSX runtime is named here, not only in a tsconfig: tsx also runs the server from the
// repository's root (the end-to-end server, the benches), where no tsconfig says it (decision 057).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import type { Email, EmailLanguage, SchoolDetails } from './email.ts';
import { AddressLink, EmailLayout, Lines, Paragraph, renderEmail } from './layout.tsx';

/**
 * The reminders before a date (decision 059): the court's due date for the certificate, or the
 * last day of the time the rules profile allows to finish the course.
 */
export type ReminderKind = 'court' | 'window';

/** What a reminder says: the date, what is still to do, and where to continue. */
export interface ReminderEmailData {
  school: SchoolDetails;
  firstName: string;
  kind: ReminderKind;
  /** ISO date 'YYYY-MM-DD' the reminder is about. */
  date: string;
  /** Whole days from today (the school's calendar) to `date`. */
  daysLeft: number;
  /** A court's due date that is also the window's last day: one reminder says both. */
  windowEndsTheSameDay: boolean;
  /** The chapters not passed yet, in order, titled in the email's language. */
  chaptersLeft: { number: number; title: string }[];
  /** Whether the final exam is still to pass (always, while the course is not finished). */
  finalLeft: boolean;
  /** Minutes of study the rules profile still asks for before the final; null when it counts none. */
  minutesLeft: number | null;
  /** The page to continue at, under the school's address (the next chapter or the final). */
  continuePath: string;
}

/** Built once: a round may write many reminders. */
const dateFormats: Record<EmailLanguage, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
  es: new Intl.DateTimeFormat('es-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
};

/** A calendar day as a reader of `language` writes it: "January 30, 2027", "30 de enero de 2027". */
function longDate(isoDate: string, language: EmailLanguage): string {
  return dateFormats[language].format(new Date(`${isoDate}T00:00:00Z`));
}

/** A number of days: "1 day", "2 days", "1 día", "2 días". */
function dayCount(days: number, language: EmailLanguage): string {
  if (language === 'es') return `${String(days)} ${days === 1 ? 'día' : 'días'}`;
  return `${String(days)} ${days === 1 ? 'day' : 'days'}`;
}

/** Minutes as hours and minutes: "3 hours 20 minutes", "3 horas y 20 minutos". */
function studyTime(minutes: number, language: EmailLanguage): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const plural = (n: number, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;
  const parts =
    language === 'es'
      ? [hours > 0 ? plural(hours, 'hora', 'horas') : '', rest > 0 ? plural(rest, 'minuto', 'minutos') : '']
      : [hours > 0 ? plural(hours, 'hour', 'hours') : '', rest > 0 ? plural(rest, 'minute', 'minutes') : ''];
  return parts.filter(Boolean).join(language === 'es' ? ' y ' : ' ');
}

/** What is left, one line each, in the email's language. */
function whatIsLeft(data: ReminderEmailData, language: EmailLanguage): string[] {
  const lines = data.chaptersLeft.map(({ number, title }) =>
    language === 'es' ? `- Capítulo ${String(number)}: ${title}` : `- Chapter ${String(number)}: ${title}`,
  );
  if (data.finalLeft) lines.push(language === 'es' ? '- El examen final' : '- The final exam');
  if (data.minutesLeft !== null && data.minutesLeft > 0) {
    const time = studyTime(data.minutesLeft, language);
    lines.push(
      language === 'es'
        ? `- ${time} más de estudio que su tribunal exige antes del examen final`
        : `- ${time} more of study time your court requires before the final exam`,
    );
  }
  return lines;
}

/** The reminder's words in each language (decision 059). */
const WORDS: Record<
  EmailLanguage,
  {
    subject: (data: ReminderEmailData, days: string) => string;
    greeting: (firstName: string) => string;
    when: (data: ReminderEmailData, date: string, days: string) => string;
    stillToDo: string;
    continueAt: string;
    turnOff: string;
  }
> = {
  en: {
    subject: (data, days) =>
      data.kind === 'court'
        ? `Your certificate is due to your court in ${days}`
        : `${days} left to finish your traffic school course`,
    greeting: (firstName) => `Hello ${firstName},`,
    when: (data, date, days) =>
      data.kind === 'court'
        ? `Your court expects your certificate of completion by ${date}, ${days} from today.` +
          (data.windowEndsTheSameDay ? ' That is also the last day the school allows to finish the course.' : '')
        : `The time allowed to finish your course ends on ${date}, ${days} from today. After that day the course closes.`,
    stillToDo: 'Still to do:',
    continueAt: 'Continue where you left off: ',
    turnOff: 'You can turn these reminders off on your home page after signing in.',
  },
  es: {
    subject: (data, days) =>
      data.kind === 'court'
        ? `Su tribunal espera su certificado dentro de ${days}`
        : `${data.daysLeft === 1 ? 'Le queda' : 'Le quedan'} ${days} para terminar su curso de escuela de tránsito`,
    greeting: (firstName) => `Hola, ${firstName}:`,
    when: (data, date, days) =>
      data.kind === 'court'
        ? `Su tribunal espera su certificado de finalización a más tardar el ${date}, dentro de ${days}.` +
          (data.windowEndsTheSameDay
            ? ' Ese también es el último día que la escuela permite para terminar el curso.'
            : '')
        : `El plazo para terminar su curso vence el ${date}, dentro de ${days}. Después de ese día, el curso se cierra.`,
    stillToDo: 'Le falta:',
    continueAt: 'Continúe donde se quedó: ',
    turnOff: 'Puede desactivar estos recordatorios en su página de inicio después de iniciar sesión.',
  },
};

/**
 * The reminder of a date ahead, with what is left and a link to continue (decision 059), in the
 * layout of every email (decision 057).
 */
export function deadlineReminderEmail(data: ReminderEmailData, language: EmailLanguage): Promise<Email> {
  const { school } = data;
  const words = WORDS[language];
  const days = dayCount(data.daysLeft, language);
  return renderEmail(
    words.subject(data, days),
    <EmailLayout school={school} language={language}>
      <Paragraph>{words.greeting(data.firstName)}</Paragraph>
      <Paragraph>{words.when(data, longDate(data.date, language), days)}</Paragraph>
      <Lines heading={words.stillToDo} lines={whatIsLeft(data, language)} />
      <Paragraph>
        {words.continueAt}
        <AddressLink href={`${school.publicUrl}${data.continuePath}`} />
      </Paragraph>
      <Paragraph>{words.turnOff}</Paragraph>
    </EmailLayout>,
  );
}
