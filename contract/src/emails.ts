import { z } from './zod.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * Staff preview every email the school sends, in each language it is written in, rendered from
 * sample data by the server's own templates (decision 057).
 */

/** The languages the school writes emails in (spec: the en/es widget). */
export const EMAIL_LANGUAGES = ['en', 'es'] as const;
export const EmailLanguageSchema = z.enum(EMAIL_LANGUAGES);
export type EmailLanguageCode = z.infer<typeof EmailLanguageSchema>;

/** A template's name as the URL carries it: lower-case words joined by hyphens. */
export const EmailTemplateNameSchema = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

export const EmailTemplateSummarySchema = z.object({
  name: EmailTemplateNameSchema,
  /** Who receives it: a student, a court's clerk or a staff member. */
  audience: z.enum(['student', 'court', 'staff']),
  /**
   * The languages it is written in: both for a student's email, English alone for the court's
   * copy and staff emails (asked in another language, they answer in English).
   */
  languages: z.array(EmailLanguageSchema).min(1),
});
export type EmailTemplateSummary = z.infer<typeof EmailTemplateSummarySchema>;

export const EmailPreviewSchema = z.object({
  name: EmailTemplateNameSchema,
  /** The language the email was written in: English when the template has no other. */
  language: EmailLanguageSchema,
  subject: z.string(),
  html: z.string(),
  text: z.string(),
});
export type EmailPreview = z.infer<typeof EmailPreviewSchema>;

/** The templates staff may preview. */
const listEmailTemplates = defineEndpoint({
  method: 'GET',
  path: '/api/admin/emails',
  staffRoles: ['super_admin', 'admin'],
  response: z.array(EmailTemplateSummarySchema),
});

/** One template rendered from sample data in a language. */
const previewEmailTemplate = defineEndpoint({
  method: 'GET',
  path: '/api/admin/emails/:name',
  staffRoles: ['super_admin', 'admin'],
  params: z.object({ name: EmailTemplateNameSchema }),
  query: z.object({ language: EmailLanguageSchema.default('en') }),
  errors: ['NOT_FOUND'],
  response: EmailPreviewSchema,
});

/** The calls of the server's emails preview. */
export const emailsApi = {
  list: listEmailTemplates,
  preview: previewEmailTemplate,
} as const;
