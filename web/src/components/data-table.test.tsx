// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { click, render, unmountAll } from '../testing/page.tsx';
import { DataTable } from './data-table.tsx';

interface Court {
  id: number;
  name: string;
  total: number;
}

const COURTS: Court[] = [
  { id: 7, name: 'Dallas Municipal Court', total: 12 },
  { id: 3, name: 'Austin Traffic Court', total: 4 },
];

const textsOf = (elements: Iterable<Element>) => [...elements].map((element) => element.textContent);

afterEach(() => {
  unmountAll();
});

describe('DataTable (the admin area’s one table)', () => {
  it('shows a column header per column and a row per item, cells in column order', () => {
    const container = render(
      <DataTable
        caption="Completions per court"
        rows={COURTS}
        rowKey={(court) => court.id}
        columns={[
          { header: 'Court', rowHeader: true, cell: (court) => court.name },
          { header: 'Total', className: 'text-right', cell: (court) => court.total },
        ]}
      />,
    );
    expect(container.querySelector('caption')?.textContent).toBe('Completions per court');
    expect(textsOf(container.querySelectorAll('thead th[scope="col"]'))).toEqual(['Court', 'Total']);
    const rows = [...container.querySelectorAll('tbody tr')];
    expect(rows.map((row) => textsOf(row.children))).toEqual([
      ['Dallas Municipal Court', '12'],
      ['Austin Traffic Court', '4'],
    ]);
    // The first cell names its row for screen readers; the others are data cells.
    expect(rows[0]?.children[0]?.tagName).toBe('TH');
    expect(rows[0]?.children[0]?.getAttribute('scope')).toBe('row');
    expect(rows[0]?.children[1]?.tagName).toBe('TD');
    expect(rows[0]?.children[1]?.className).toContain('text-right');
  });

  it('gives each row the attributes asked for, and adds the footer rows after the data', async () => {
    const opened: number[] = [];
    const container = render(
      <DataTable
        rows={COURTS}
        rowKey={(court) => court.id}
        rowProps={(court) => ({ onClick: () => opened.push(court.id) })}
        columns={[{ header: 'Court', cell: (court) => court.name }]}
        footer={
          <tr>
            <td>All courts</td>
          </tr>
        }
      />,
    );
    const rows = [...container.querySelectorAll('tbody tr')];
    expect(textsOf(rows)).toEqual(['Dallas Municipal Court', 'Austin Traffic Court', 'All courts']);
    await click(rows[1]);
    expect(opened).toEqual([3]);
  });
});
