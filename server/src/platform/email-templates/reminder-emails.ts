import { type Email, type EmailLanguage, inLanguage, type SchoolDetails } from './email.ts';

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

/** The list of what is left, one line each, in the email's language. */
function whatIsLeft(data: ReminderEmailData, language: EmailLanguage): string {
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
  return `${lines.join('\n')}\n`;
}

/** The reminder of a date ahead, with what is left and a link to continue (decision 059). */
export function deadlineReminderEmail(data: ReminderEmailData, language: EmailLanguage): Email {
  const { school } = data;
  const link = `${school.publicUrl}${data.continuePath}`;
  const days = { en: dayCount(data.daysLeft, 'en'), es: dayCount(data.daysLeft, 'es') };
  return inLanguage(language, {
    en: {
      subject:
        data.kind === 'court'
          ? `Your certificate is due to your court in ${days.en}`
          : `${days.en} left to finish your traffic school course`,
      text:
        `Hello ${data.firstName},\n\n` +
        (data.kind === 'court'
          ? `Your court expects your certificate of completion by ${longDate(data.date, 'en')}, ${days.en} from today.` +
            (data.windowEndsTheSameDay ? ' That is also the last day the school allows to finish the course.' : '')
          : `The time allowed to finish your course ends on ${longDate(data.date, 'en')}, ${days.en} from today. After that day the course closes.`) +
        `\n\nStill to do:\n${whatIsLeft(data, 'en')}\n` +
        `Continue where you left off: ${link}\n\n` +
        `You can turn these reminders off on your home page after signing in.\n` +
        `Questions? Write to ${school.supportEmail}.\n\n${school.name}\n`,
    },
    es: {
      subject:
        data.kind === 'court'
          ? `Su tribunal espera su certificado dentro de ${days.es}`
          : `${data.daysLeft === 1 ? 'Le queda' : 'Le quedan'} ${days.es} para terminar su curso de escuela de tránsito`,
      text:
        `Hola, ${data.firstName}:\n\n` +
        (data.kind === 'court'
          ? `Su tribunal espera su certificado de finalización a más tardar el ${longDate(data.date, 'es')}, dentro de ${days.es}.` +
            (data.windowEndsTheSameDay
              ? ' Ese también es el último día que la escuela permite para terminar el curso.'
              : '')
          : `El plazo para terminar su curso vence el ${longDate(data.date, 'es')}, dentro de ${days.es}. Después de ese día, el curso se cierra.`) +
        `\n\nLe falta:\n${whatIsLeft(data, 'es')}\n` +
        `Continúe donde se quedó: ${link}\n\n` +
        `Puede desactivar estos recordatorios en su página de inicio después de iniciar sesión.\n` +
        `¿Preguntas? Escriba a ${school.supportEmail}.\n\n${school.name}\n`,
    },
  });
}
