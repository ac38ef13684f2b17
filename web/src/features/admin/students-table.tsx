import { Link, useNavigate } from 'react-router';
import type { AdminStudentRow, AdminStudentSort } from '@ts/contract';
import { DataTable, type SortOrder } from '../../components/data-table.tsx';
import { formatShortDate } from '../../lib/dates.ts';
import { useTranslation } from '../../lib/i18n.ts';

/**
 * Spec 2's students table: each row opens the student's detail (the name is the link the keyboard
 * reaches), and the name, court, completed and registered headers sort.
 */
export function StudentsTable({
  rows,
  sort,
  order,
  onSort,
}: {
  rows: AdminStudentRow[];
  sort: AdminStudentSort;
  order: SortOrder;
  onSort: (key: string) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();

  function openStudent(student: AdminStudentRow) {
    void navigate(`/admin/students/${String(student.id)}`, { state: { student } });
  }

  return (
    <DataTable
      variant="boxed"
      caption={t('admin.pages.students')}
      rows={rows}
      rowKey={(student) => student.id}
      sort={{ key: sort, order }}
      onSort={onSort}
      rowProps={(student) => ({
        className: 'cursor-pointer hover:bg-slate-50',
        onClick: (event) => {
          // The name link navigates by itself (and is what the keyboard reaches).
          if ((event.target as HTMLElement).closest('a')) return;
          openStudent(student);
        },
      })}
      columns={[
        { header: t('adminStudents.columns.id'), cell: (student) => student.id },
        {
          header: t('adminStudents.columns.first_name'),
          sortKey: 'name',
          cell: (student) => (
            <Link
              to={`/admin/students/${String(student.id)}`}
              state={{ student }}
              className="font-semibold text-blue-800 underline"
            >
              {student.first_name}
            </Link>
          ),
        },
        { header: t('adminStudents.columns.last_name'), cell: (student) => student.last_name },
        {
          header: t('adminStudents.columns.email'),
          // A long address wraps (at the @ or anywhere) rather than pushing the dates off a laptop's screen.
          className: 'min-w-[11rem] max-w-[14rem] [overflow-wrap:anywhere]',
          cell: (student) => student.email,
        },
        {
          header: t('adminStudents.columns.dl_number'),
          className: 'whitespace-nowrap',
          cell: (student) => student.dl_number,
        },
        {
          header: t('adminStudents.columns.court_name'),
          sortKey: 'court',
          // Wide enough that a court's long name takes two or three lines, not five.
          className: 'min-w-[10rem]',
          cell: (student) => student.court_name,
        },
        {
          header: t('adminStudents.columns.payment'),
          className: 'whitespace-nowrap',
          cell: (student) =>
            student.payment_at ? (
              <span className="rounded-full bg-green-100 px-2.5 py-1 font-semibold text-green-900">
                {t('adminStudents.paidOn', { date: formatShortDate(student.payment_at) })}
              </span>
            ) : (
              <span className="rounded-full bg-amber-100 px-2.5 py-1 font-semibold text-amber-900">
                {t('adminStudents.notPaid')}
              </span>
            ),
        },
        {
          header: t('adminStudents.columns.completed_at'),
          sortKey: 'completed',
          className: 'whitespace-nowrap',
          cell: (student) =>
            student.completed_at ? formatShortDate(student.completed_at) : t('adminStudent.inProgress'),
        },
        {
          header: t('adminStudents.columns.created_at_formatted'),
          sortKey: 'registered',
          className: 'whitespace-nowrap',
          // The same short date as the Completed column, on the school's calendar.
          cell: (student) => formatShortDate(student.created_at),
        },
      ]}
    />
  );
}
