import { useEffect, useRef, useState } from 'react';
import { type EndpointOutput, SET_PASSWORD_LINK_HOURS, staffApi } from '@ts/contract';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { formatMoment } from '../../lib/dates.ts';
import { useTranslation } from '../../lib/i18n.ts';

type SetPasswordLink = EndpointOutput<typeof staffApi.issueSetPasswordLink>;

/** A one-time set-password link to show, with whom it is for. */
export interface ShownLink {
  name: string;
  email: string;
  link: SetPasswordLink;
}

/** The one-time link, shown once: it was also emailed, and only its hash is kept by the server. */
export function LinkBox({ shown, onDismiss }: { shown: ShownLink; onDismiss: () => void }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => headingRef.current?.focus(), [shown]);
  const expires = formatMoment(shown.link.expires_at);
  const details = { email: shown.email, hours: SET_PASSWORD_LINK_HOURS, expires };

  async function copy() {
    inputRef.current?.select();
    try {
      await navigator.clipboard.writeText(shown.link.setPasswordUrl);
      setCopied(true);
    } catch {
      // Without clipboard access the link stays selected for the person to copy.
    }
  }

  return (
    <section aria-labelledby="link-heading" className="space-y-3 rounded-lg border border-blue-300 bg-blue-50 p-6">
      <h2 id="link-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-blue-950">
        {t('users.linkTitle', { name: shown.name })}
      </h2>
      <p className="text-slate-800">
        {shown.link.emailed ? t('users.linkEmailed', details) : t('users.linkNotEmailed', details)}
      </p>
      <p className="text-slate-800">{t('users.linkOnce')}</p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextField
            ref={inputRef}
            label={t('users.linkLabel')}
            value={shown.link.setPasswordUrl}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
        <Button variant="secondary" onClick={() => void copy()}>
          {t('users.copy')}
        </Button>
      </div>
      <p role="status" className="text-sm text-slate-800">
        {copied ? t('users.copied') : ''}
      </p>
      <Button variant="secondary" onClick={onDismiss}>
        {t('users.done')}
      </Button>
    </section>
  );
}
