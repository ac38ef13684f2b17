import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { ADMIN_STUDENT_DEFAULT_ORDER, ADMIN_STUDENT_SORTS, type AdminStudentSort } from '@ts/contract';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import type { SortOrder } from '../../components/data-table.tsx';
import { SelectField, TextField } from '../../components/field.tsx';
import { useCourts } from '../../lib/queries.ts';
import { useStoredUser } from '../../lib/session.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { adminQueries } from './admin-queries.ts';
import { StudentsTable } from './students-table.tsx';

/** Spec 9: the student search waits until typing has paused for 300 ms. */
export const STUDENT_SEARCH_DELAY_MS = 300;
/** The contract's page limit: a page number typed into the address bar goes no further. */
const MAX_PAGE = 100_000;

type ListChange = { search?: string; court?: string; page?: number; sort?: AdminStudentSort; order?: SortOrder };

/** Which way a column sorts first: names and courts A to Z, dates newest first. */
const DEFAULT_ORDER: Record<AdminStudentSort, SortOrder> = {
  name: 'asc',
  court: 'asc',
  registered: 'desc',
  completed: 'desc',
};

/** The list's search, court, sort and page as the address holds them, and how to change them. */
function useStudentListAddress(courtLimited: boolean) {
  const [params, setParams] = useSearchParams();
  const searchTerm = params.get('search') ?? '';
  const court = courtLimited ? '' : (params.get('court') ?? '');
  const courtId = /^\d+$/.test(court) && Number(court) > 0 ? Number(court) : undefined;
  const page = Math.min(MAX_PAGE, Math.max(1, Math.floor(Number(params.get('page'))) || 1));
  // Sorted by a column, newest registration first unless asked otherwise (spec 2).
  const sortParam = params.get('sort');
  const sort: AdminStudentSort =
    ADMIN_STUDENT_SORTS.find((key) => key === sortParam) ?? ADMIN_STUDENT_DEFAULT_ORDER.sort;
  const order: SortOrder =
    params.get('order') === 'asc' ? 'asc' : params.get('order') === 'desc' ? 'desc' : DEFAULT_ORDER[sort];

  function changeList(change: ListChange, options: { replace: boolean }) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(change)) {
        const text = String(value);
        // Page 1 and empty filters are the defaults: left out of the address.
        if (text === '' || (key === 'page' && text === '1')) next.delete(key);
        else next.set(key, text);
      }
      return next;
    }, options);
  }

  /** A header pressed: its column the other way round, or a new column its natural way first. */
  function sortBy(key: string) {
    const next = ADMIN_STUDENT_SORTS.find((known) => known === key) ?? ADMIN_STUDENT_DEFAULT_ORDER.sort;
    const nextOrder = next === sort ? (order === 'asc' ? 'desc' : 'asc') : DEFAULT_ORDER[next];
    changeList({ sort: next, order: nextOrder, page: 1 }, { replace: true });
  }

  return { searchTerm, court, courtId, page, sort, order, changeList, sortBy };
}

/**
 * The search box: what is typed shows at once; the search (and the address) follows once typing
 * pauses. Back or Forward changing the search in the address shows it in the box.
 */
function useTypedSearch(searchTerm: string, onSearch: (term: string) => void): [string, (text: string) => void] {
  const [typed, setTyped] = useState(searchTerm);
  const settled = useDebouncedValue(typed, STUDENT_SEARCH_DELAY_MS).trim();
  const searchWeSet = useRef(searchTerm);
  // Only a newly settled term starts a search; an address change (Back) is handled below.
  const onSettled = useEffectEvent((term: string) => {
    if (term === searchTerm) return;
    searchWeSet.current = term;
    onSearch(term);
  });
  useEffect(() => onSettled(settled), [settled]);
  useEffect(() => {
    // Back or Forward changed the search in the address: show it in the box.
    if (searchTerm === searchWeSet.current) return;
    searchWeSet.current = searchTerm;
    setTyped(searchTerm);
  }, [searchTerm]);
  return [typed, setTyped];
}

/**
 * Spec 2 /admin/students: search (debounced), court filter, sorting and pages. They live in the
 * address (?search=&court=&sort=&order=&page=), so Back from a student's detail returns to the same
 * list. A court-limited admin has no court filter: the server shows them their court only.
 */
export function StudentsPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const courtLimited = user?.court_id != null;
  const courts = useCourts();
  const { searchTerm, court, courtId, page, sort, order, changeList, sortBy } = useStudentListAddress(courtLimited);
  const [typed, setTyped] = useTypedSearch(searchTerm, (term) =>
    changeList({ search: term, page: 1 }, { replace: true }),
  );

  const list = useQuery(adminQueries.students({ searchTerm, courtId, page, sort, order }));
  const data = list.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="space-y-6">
      <PageHeading className="text-2xl font-bold">{t('admin.pages.students')}</PageHeading>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          type="search"
          label={t('adminStudents.searchLabel')}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          maxLength={100}
          autoComplete="off"
        />
        {!courtLimited && (
          <SelectField
            label={t('fields.court')}
            value={court}
            onChange={(event) => changeList({ court: event.target.value, page: 1 }, { replace: true })}
          >
            <option value="">{t('adminStudents.allCourts')}</option>
            {courts.data?.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </SelectField>
        )}
      </div>
      {courts.isError && !courtLimited && <Alert>{t('register.courtsError')}</Alert>}

      {list.isPending && <p className="text-slate-700">{t('common.loading')}</p>}
      {list.isError && <Alert>{t('adminStudents.loadError')}</Alert>}
      {data && (
        <>
          <p role="status" className="text-sm text-slate-700">
            {list.isFetching ? t('common.loading') : t('adminStudents.found', { count: data.total })}
          </p>
          {data.rows.length === 0 ? (
            <p className="text-slate-700">{t('adminStudents.noStudents')}</p>
          ) : (
            <StudentsTable rows={data.rows} sort={sort} order={order} onSort={sortBy} />
          )}
          <nav aria-label={t('adminStudents.pagination')} className="flex flex-wrap items-center gap-3">
            {page > 1 && (
              <Button variant="secondary" onClick={() => changeList({ page: page - 1 }, { replace: false })}>
                {t('adminStudents.previous')}
              </Button>
            )}
            <span className="text-slate-700">{t('adminStudents.pageOf', { page, pages: pageCount })}</span>
            {page < pageCount && (
              <Button variant="secondary" onClick={() => changeList({ page: page + 1 }, { replace: false })}>
                {t('adminStudents.next')}
              </Button>
            )}
          </nav>
        </>
      )}
    </div>
  );
}
