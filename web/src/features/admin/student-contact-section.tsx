import { useState } from 'react';
import type { z } from 'zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type AdminStudent, UpdateStudentContactSchema, adminStudentsApi } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { callApi } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { StateOptions } from '../../components/state-options.tsx';
import { LANGUAGES, useTranslation } from '../../lib/i18n.ts';
import { adminQueries } from './admin-queries.ts';

/**
 * Decision 026: an admin corrects the student's email and mailing address (a typo reaches no one)
 * and, in the same step, sends the certificate to the new address. The language of the student's
 * emails is changed here too (decision 056).
 */
export function StudentContactSection({ student }: { student: AdminStudent }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState({
    email: student.email,
    address: student.address,
    city: student.city,
    state: student.state,
    zip: student.zip,
    resend: student.certificates.length > 0,
    // Decision 056: the language the school writes to the student in, sent with the rest.
    language: student.language ?? 'en',
  });
  const [invalid, setInvalid] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: z.output<typeof UpdateStudentContactSchema>) =>
      callApi(adminStudentsApi.updateContact, { params: { id: student.id }, body }),
    onSuccess: async () => {
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: adminQueries.student(student.id).queryKey });
    },
  });
  const set = (key: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));

  function submit() {
    const checked = UpdateStudentContactSchema.safeParse(values);
    if (!checked.success) {
      setInvalid(String(checked.error.issues[0]?.path[0] ?? ''));
      return;
    }
    setInvalid(null);
    save.mutate(checked.data);
  }

  if (!editing) {
    return (
      <Button variant="secondary" onClick={() => setEditing(true)}>
        {t('adminStudent.contact.edit')}
      </Button>
    );
  }
  return (
    <section aria-labelledby="contact-heading" className="space-y-4 rounded-lg border border-slate-200 p-4">
      <h3 id="contact-heading" className="font-semibold">
        {t('adminStudent.contact.heading')}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('fields.email')}
          value={values.email}
          onChange={set('email')}
          error={invalid === 'email' ? t('adminStudent.contact.badEmail') : undefined}
        />
        <TextField
          label={t('fields.address')}
          value={values.address}
          onChange={set('address')}
          error={invalid === 'address' ? t('adminStudent.contact.required') : undefined}
        />
        <TextField
          label={t('fields.city')}
          value={values.city}
          onChange={set('city')}
          error={invalid === 'city' ? t('adminStudent.contact.required') : undefined}
        />
        <SelectField label={t('fields.state')} value={values.state} onChange={set('state')}>
          <StateOptions />
        </SelectField>
        <TextField
          label={t('fields.zip')}
          value={values.zip}
          onChange={set('zip')}
          error={invalid === 'zip' ? t('adminStudent.contact.badZip') : undefined}
        />
        <SelectField label={t('adminStudent.contact.language')} value={values.language} onChange={set('language')}>
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {t(`language.${language}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={values.resend}
          onChange={(event) => setValues((current) => ({ ...current, resend: event.target.checked }))}
        />
        {t('adminStudent.contact.resend')}
      </label>
      {save.isError && <Alert>{errorText(save.error, t)}</Alert>}
      <div className="flex gap-3">
        <Button onClick={submit} disabled={save.isPending}>
          {save.isPending ? t('common.loading') : t('adminStudent.contact.save')}
        </Button>
        <Button variant="secondary" onClick={() => setEditing(false)}>
          {t('common.cancel')}
        </Button>
      </div>
    </section>
  );
}
