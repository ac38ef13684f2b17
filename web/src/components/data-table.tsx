import { useEffect, useRef, useState, type HTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n.ts';

/** One column of a DataTable: its header, and what each row shows in it. */
export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Extra classes of the column's header and cells (whitespace-nowrap, text-right...). */
  className?: string;
  /** The cell names its row: a <th scope="row">, as screen readers announce it with each cell. */
  rowHeader?: boolean;
  /** The key the table's `onSort` is given when this column's header is pressed: a sortable column. */
  sortKey?: string;
}

export type SortOrder = 'asc' | 'desc';

interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** What the table is, for screen readers (visually hidden). */
  caption?: string;
  /**
   * 'plain' inside a section that already has its card (detail sections, lists); 'boxed' as a
   * card of its own, with padded cells and a shaded header (the student list, the report).
   * 'roomy' is plain with taller, top-aligned rows for cells of several lines.
   */
  variant?: 'plain' | 'roomy' | 'boxed';
  /** Attributes of a row's <tr> (a click handler, a hover style). */
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement>;
  /** Rows after the data (a total), already marked up. */
  footer?: ReactNode;
  /** The column the rows are sorted by (its sortKey) and which way; shown on its header. */
  sort?: { key: string; order: SortOrder };
  /** A sortable column's header was pressed. */
  onSort?: (key: string) => void;
}

/** Whether the element is wider than the room it has, kept up to date as either changes. */
function useOverflows<E extends HTMLElement>(): [React.RefObject<E | null>, boolean] {
  const ref = useRef<E>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return [ref, overflows];
}

const STYLES = {
  plain: { wrapper: 'relative mt-2 overflow-x-auto', thead: 'text-slate-800', cell: 'py-2 pr-4', body: '' },
  roomy: { wrapper: 'relative mt-4 overflow-x-auto', thead: 'text-slate-800', cell: 'py-3 pr-4', body: 'align-top' },
  boxed: {
    wrapper: 'relative overflow-x-auto rounded-lg bg-white shadow',
    thead: 'bg-slate-50 text-slate-800',
    cell: 'px-3 py-2',
    body: '',
  },
} as const;

/** The admin area's one table: column headers, one row per item, the same look everywhere. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  variant = 'plain',
  rowProps,
  footer,
  sort,
  onSort,
}: DataTableProps<Row>) {
  const { t } = useTranslation();
  const style = STYLES[variant];
  const [scroller, overflows] = useOverflows<HTMLDivElement>();
  const classOf = (column: Column<Row>) => [style.cell, column.className].filter(Boolean).join(' ');
  // A row header reads as ordinary text unless its column asks for a weight of its own.
  const rowHeaderClassOf = (column: Column<Row>) =>
    column.className?.includes('font-') ? classOf(column) : `${classOf(column)} font-normal`;
  const header = (column: Column<Row>) => {
    if (!column.sortKey || !onSort) return column.header;
    const active = sort?.key === column.sortKey;
    return (
      <button
        type="button"
        onClick={() => onSort(column.sortKey!)}
        className="inline-flex items-center gap-1 whitespace-nowrap font-semibold underline decoration-dotted underline-offset-4"
      >
        {column.header}
        <span aria-hidden="true">{active ? (sort.order === 'asc' ? '▲' : '▼') : '↕'}</span>
      </button>
    );
  };
  const ariaSort = (column: Column<Row>) => {
    if (!column.sortKey || !onSort) return undefined;
    if (sort?.key !== column.sortKey) return 'none' as const;
    return sort.order === 'asc' ? ('ascending' as const) : ('descending' as const);
  };
  return (
    <>
      {/* On a phone a wide table scrolls sideways; say so where it does. */}
      {overflows && (
        <p className="mt-2 text-sm text-slate-700" aria-hidden="true">
          {t('common.scrollHint')} →
        </p>
      )}
      <div
        ref={scroller}
        className={style.wrapper}
        // A table that scrolls can be scrolled by keyboard too (focus it, then the arrow keys).
        {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': caption ?? t('common.scrollHint') } : {})}
      >
        <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
          {caption && <caption className="sr-only">{caption}</caption>}
          <thead className={style.thead}>
            <tr>
              {columns.map((column, index) => (
                <th key={index} scope="col" aria-sort={ariaSort(column)} className={`${classOf(column)} font-semibold`}>
                  {header(column)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={`divide-y divide-slate-200 text-slate-900 ${style.body}`}>
            {rows.map((row, rowIndex) => (
              <tr key={rowKey(row, rowIndex)} {...rowProps?.(row)}>
                {columns.map((column, index) =>
                  column.rowHeader ? (
                    <th key={index} scope="row" className={rowHeaderClassOf(column)}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={index} className={classOf(column)}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))}
            {footer}
          </tbody>
        </table>
      </div>
    </>
  );
}
