// @vitest-environment happy-dom
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../lib/i18n.ts';
import { useCompletedChapters } from './course-queries.ts';

// No act(): react-query reports from its own timers, and the tests wait for the outcome instead.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

const STUDENT = {
  id: 3,
  type: 'student',
  name: 'Sam Lee',
  court_id: null,
  payment_at: '2026-11-01T00:00:00Z',
  completed_at: null,
};

function CompletedChapters() {
  useCompletedChapters();
  return null;
}

const mounted: Root[] = [];

/** Mounts the completed-chapters query for a signed-in student and waits until it has failed. */
async function failCompletedChapters(fetchImpl: () => Promise<Response>): Promise<void> {
  localStorage.setItem('user', JSON.stringify(STUDENT));
  vi.stubGlobal('fetch', vi.fn(fetchImpl));
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push(root);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  root.render(
    <QueryClientProvider client={client}>
      <CompletedChapters />
    </QueryClientProvider>,
  );
  await vi.waitFor(() => expect(client.getQueryState(['completed-chapters', STUDENT.id])?.status).toBe('error'));
  expect(fetch).toHaveBeenCalledWith('/api/students/3/completedChapters', expect.anything());
}

const answer = (status: number, code: string) => () =>
  Promise.resolve(
    new Response(JSON.stringify({ error: { code, message: 'x' } }), {
      status,
      headers: { 'content-type': 'application/json' },
    }),
  );

afterEach(() => {
  for (const root of mounted.splice(0)) root.unmount();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  localStorage.clear();
});

describe('a failed completed-chapters call (spec 8, issue 13)', () => {
  it('keeps the stored user when the call was aborted by a reload', async () => {
    await failCompletedChapters(() => Promise.reject(new DOMException('The user aborted a request.', 'AbortError')));
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(STUDENT);
  });

  it('keeps the stored user after a network error', async () => {
    await failCompletedChapters(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(STUDENT);
  });

  it("removes the stored user after the server's 401", async () => {
    await failCompletedChapters(answer(401, 'UNAUTHENTICATED'));
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('removes the stored user after a 500 the server answered', async () => {
    await failCompletedChapters(answer(500, 'INTERNAL'));
    expect(localStorage.getItem('user')).toBeNull();
  });
});
