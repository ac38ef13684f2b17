// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render, settled, stubApi } from '../testing/page.tsx';
import { HeadingCourtProvider, PageHeading } from './page-heading.tsx';

describe('PageHeading (decisions 021 and 063)', () => {
  it("puts a court's own staff member's court before the page's name, in the heading and the tab", async () => {
    stubApi(() => ({ status: 200, body: { schoolName: 'Safe Roads Traffic School' } }));
    const page = render(
      <HeadingCourtProvider value="Alameda Superior Court">
        <PageHeading>Students</PageHeading>
      </HeadingCourtProvider>,
    );
    await settled();
    expect(page.querySelector('h1')?.textContent).toBe('Alameda Superior Court: Students');
    expect(document.title).toMatch(/^Alameda Superior Court: Students/);
  });

  it('names the page alone for everyone else', async () => {
    stubApi(() => ({ status: 200, body: { schoolName: 'Safe Roads Traffic School' } }));
    const page = render(<PageHeading>Students</PageHeading>);
    await settled();
    expect(page.querySelector('h1')?.textContent).toBe('Students');
    expect(document.title).toMatch(/^Students/);
  });
});
