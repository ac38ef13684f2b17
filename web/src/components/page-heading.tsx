import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import { useSchoolName } from '../lib/queries.ts';

/**
 * The court a court's own staff member is limited to (decision 063), given by the admin area's
 * layout: every page of theirs then says the court first ("Alameda Superior Court: Students"), in
 * the heading and the tab, so nobody mistakes a court's account for the school's. Empty elsewhere.
 */
const HeadingCourt = createContext('');
export const HeadingCourtProvider = HeadingCourt.Provider;

/**
 * A page's one heading (decision 021): it names the tab ("Chapter 2 Quiz – School"), and after a
 * navigation inside the app it takes the focus, so a screen reader announces the new page and
 * the next Tab starts at its top instead of at the link that was pressed. The first page of a
 * visit keeps the browser's own starting point. `title` is needed when the heading is not text.
 */
export function PageHeading({
  children,
  title,
  className = 'text-2xl font-bold text-slate-900',
}: {
  children: ReactNode;
  title?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const schoolName = useSchoolName();
  const court = useContext(HeadingCourt);
  const { key } = useLocation();
  const ref = useRef<HTMLHeadingElement>(null);
  const ownTitle = title ?? (typeof children === 'string' ? children : '');
  const withCourt = (text: string) => (court ? t('admin.courtPageTitle', { court, title: text }) : text);
  const pageTitle = ownTitle && withCourt(ownTitle);
  useEffect(() => {
    document.title = [pageTitle, schoolName].filter(Boolean).join(' – ');
  }, [pageTitle, schoolName]);
  useEffect(() => {
    // 'default' is the location the visit started on: nothing was pressed to get here.
    if (key !== 'default') ref.current?.focus({ preventScroll: true });
  }, [key]);
  return (
    <h1 ref={ref} tabIndex={-1} className={`${className} focus:outline-none`}>
      {court && typeof children === 'string' ? withCourt(children) : children}
    </h1>
  );
}
