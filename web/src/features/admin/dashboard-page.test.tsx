// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportRow, Stat } from '@ts/contract';
import { buttonNamed, click, render, settled, stubApi } from '../../testing/page.tsx';
import { DashboardPage } from './dashboard-page.tsx';

const STATS: Stat[] = [
  { name: 'registrations', value: 1234, unit: 'count' },
  { name: 'payments', value: 4, unit: 'count' },
  { name: 'revenue', value: 123456, unit: 'cents' },
  { name: 'completions', value: 5, unit: 'count' },
  { name: 'final_pass_rate', value: 66.7, unit: 'percent' },
  { name: 'certificates_issued', value: 5, unit: 'count' },
  { name: 'students_in_progress', value: 2, unit: 'count' },
  { name: 'unpaid_registrations', value: 0, unit: 'count' },
  { name: 'failed_deliveries', value: 2, unit: 'count' },
  { name: 'average_days_to_complete', value: null, unit: 'days' },
];

const REPORT: ReportRow[] = [
  { court_id: 3, court_name: 'Alpha Court', seven_day: 1, thirty_day: 2, sixty_day: 2, ninety_day: 2, total: 3 },
  { court_id: 1, court_name: '=Bravo, "B"', seven_day: 0, thirty_day: 4, sixty_day: 5, ninety_day: 6, total: 9 },
];

/** Answers the two dashboard calls; `statsStatus` other than 200 makes the stats fail. */
function answerDashboard(statsStatus = 200) {
  stubApi((url) => {
    const [status, body] = url === '/api/admin/stats' ? [statsStatus, STATS] : [200, REPORT];
    return { status, body: status === 200 ? body : { error: { code: 'INTERNAL', message: 'down' } } };
  });
}

/** The page once both calls have answered. */
async function renderPage(): Promise<HTMLElement> {
  const page = render(<DashboardPage />);
  await settled();
  expect(page.textContent).not.toContain('Loading...');
  return page;
}

/** The stats list as label -> shown value. */
const statsShown = (page: HTMLElement) =>
  Object.fromEntries(
    [...page.querySelectorAll('dl > div')].map((item) => [
      item.querySelector('dt')?.textContent,
      item.querySelector('dd')?.textContent,
    ]),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Dashboard page (spec 2 /admin)', () => {
  it('shows every figure with its label: counts, dollars, a percentage, and a dash explained to screen readers', async () => {
    answerDashboard();
    const page = await renderPage();
    expect(page.querySelector('h1')?.textContent).toBe('Dashboard');
    expect(statsShown(page)).toEqual({
      Registrations: '1,234',
      Payments: '4',
      Revenue: '$1,234.56',
      Completions: '5',
      'Final exam pass rate': '66.7%',
      'Certificates issued': '5',
      'Students in progress (now)': '2',
      'Registrations still unpaid': '0',
      'Certificate emails that failed (now)': '2',
      'Average days to complete': '—No value: no student completed the course in the last 30 days.',
    });
    const dash = [...page.querySelectorAll('dd span')].find((span) => span.textContent === '—');
    expect(dash?.getAttribute('aria-hidden')).toBe('true');
  });

  it('shows days with one decimal', async () => {
    STATS[9] = { name: 'average_days_to_complete', value: 23.9, unit: 'days' };
    try {
      answerDashboard();
      expect(statsShown(await renderPage())['Average days to complete']).toBe('23.9 days');
    } finally {
      STATS[9] = { name: 'average_days_to_complete', value: null, unit: 'days' };
    }
  });

  it("alerts exactly 'error getting stats' when the stats fail, and still shows the report", async () => {
    answerDashboard(500);
    const page = await renderPage();
    expect(page.querySelector('[role=alert]')?.textContent).toBe('error getting stats');
    expect(page.querySelectorAll('tbody tr')).toHaveLength(2);
  });

  it('shows the report as a table with a header per column and the court naming each row', async () => {
    answerDashboard();
    const page = await renderPage();
    expect([...page.querySelectorAll('thead th')].map((th) => [th.textContent, th.getAttribute('scope')])).toEqual([
      ['Court', 'col'],
      ['7 days', 'col'],
      ['30 days', 'col'],
      ['60 days', 'col'],
      ['90 days', 'col'],
      ['Total', 'col'],
    ]);
    const rows = [...page.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['Alpha Court', '1', '2', '2', '2', '3'],
      ['=Bravo, "B"', '0', '4', '5', '6', '9'],
    ]);
    expect(page.querySelector('tbody th')?.getAttribute('scope')).toBe('row');
  });

  it('draws the 30-day completions as bars, the longest for the largest, described in one sentence', async () => {
    answerDashboard();
    const page = await renderPage();
    const chart = page.querySelector('figure [role=img]');
    expect(chart?.getAttribute('aria-label')).toBe('Alpha Court: 2; =Bravo, "B": 4');
    const widths = [...(chart?.querySelectorAll<HTMLElement>('.bg-blue-700') ?? [])].map((bar) => bar.style.width);
    expect(widths).toEqual(['50%', '100%']);
  });

  it('downloads the report as a CSV file made in the browser, with formulas neutralised', async () => {
    answerDashboard();
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:report';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const page = await renderPage();
    await click(buttonNamed(page, 'Download CSV'));
    expect(clicked).toHaveLength(1);
    expect(clicked[0]?.download).toMatch(/^completions-by-court-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(clicked[0]?.getAttribute('href')).toBe('blob:report');
    expect(blobs[0]?.type).toBe('text/csv;charset=utf-8');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blobs[0]!.arrayBuffer());
    expect(text).toBe(
      '\uFEFFcourt_name,seven_day,thirty_day,sixty_day,ninety_day,total\r\n' +
        'Alpha Court,1,2,2,2,3\r\n' +
        `"'=Bravo, ""B""",0,4,5,6,9\r\n`,
    );
  });
});
