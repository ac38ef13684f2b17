// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useQuery } from '@tanstack/react-query';
import { courtsApi } from '@ts/contract';
import { callApi, reconnecting } from '../lib/api.ts';
import { findText, render, stubApi, unmountAll, waitFor } from '../testing/page.tsx';
import { ReconnectingBanner } from './reconnecting-banner.tsx';

const UNAVAILABLE = { error: { code: 'SERVICE_UNAVAILABLE', message: 'The school is reconnecting to its database.' } };
const BANNER = 'Your work is saved. We’re reconnecting to the school…';

/** A page that reads something, and says how the read went. */
function Reader() {
  const courts = useQuery({ queryKey: ['courts-read'], queryFn: () => callApi(courtsApi.list, { query: {} }) });
  return <p>{courts.isSuccess ? 'read' : courts.isError ? 'failed' : 'reading'}</p>;
}

beforeEach(() => {
  reconnecting.set(false);
});
afterEach(() => {
  unmountAll();
});

describe('the reconnecting banner (decision 061)', () => {
  it('is a polite live region, in the page and empty while the school answers', () => {
    stubApi(() => ({ body: [] }));
    const container = render(<ReconnectingBanner />);
    const region = container.querySelector('[aria-live="polite"]');
    expect(region?.textContent).toBe('');
  });

  it('says the work is saved while the school reconnects, then goes once it answers and asks again what failed', async () => {
    let away = true;
    const api = stubApi((url) => {
      if (away) return { status: 503, body: UNAVAILABLE };
      return url === '/api/health' ? { body: { status: 'ok', database: 'ok' } } : { body: [] };
    });
    const container = render(
      <>
        <Reader />
        <ReconnectingBanner />
      </>,
    );
    await findText(container, 'failed');
    const region = container.querySelector('[aria-live="polite"]');
    expect(region?.textContent).toBe(BANNER);

    away = false;
    // The banner asks the health check until the school answers; then the failed read is asked again.
    await findText(container, 'read');
    expect(region?.textContent).toBe('');
    expect(api.calls().some(([url]) => url === '/api/health')).toBe(true);
  });

  it('stays while the school is still away', async () => {
    const api = stubApi(() => ({ status: 503, body: UNAVAILABLE }));
    const container = render(<ReconnectingBanner />);
    act(() => reconnecting.set(true));
    await waitFor(() => expect(api.calls().filter(([url]) => url === '/api/health').length).toBeGreaterThan(0));
    expect(container.querySelector('[aria-live="polite"]')?.textContent).toBe(BANNER);
  });
});
