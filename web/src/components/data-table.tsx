import type { HTMLAttributes, ReactNode } from 'react';

/** One column of a DataTable: its header, and what each row shows in it. */
export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Extra classes of the column's header and cells (whitespace-nowrap, text-right...). */
  className?: string;
  /** The cell names its row: a <th scope="row">, as screen readers announce it with each cell. */
  rowHeader?: boolean;
}

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
}

const STYLES = {
  plain: { wrapper: 'mt-2 overflow-x-auto', thead: 'text-slate-800', cell: 'py-2 pr-4', body: '' },
  roomy: { wrapper: 'mt-4 overflow-x-auto', thead: 'text-slate-800', cell: 'py-3 pr-4', body: 'align-top' },
  boxed: {
    wrapper: 'overflow-x-auto rounded-lg bg-white shadow',
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
}: DataTableProps<Row>) {
  const style = STYLES[variant];
  const classOf = (column: Column<Row>) => [style.cell, column.className].filter(Boolean).join(' ');
  // A row header reads as ordinary text unless its column asks for a weight of its own.
  const rowHeaderClassOf = (column: Column<Row>) =>
    column.className?.includes('font-') ? classOf(column) : `${classOf(column)} font-normal`;
  return (
    <div className={style.wrapper}>
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className={style.thead}>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={`${classOf(column)} font-semibold`}>
                {column.header}
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
  );
}
