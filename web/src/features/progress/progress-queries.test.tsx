// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { newQueryClient, render, settled, stubApi, waitFor, type Answer } from '../../testing/page.tsx';
import { progressQueries, useCompletedChapters } from './progress-queries.ts';

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

/** Mounts the completed-chapters query for a signed-in student and waits until it has failed. */
async function failCompletedChapters(answer: () => Promise<Answer> | Answer): Promise<void> {
  localStorage.setItem('user', JSON.stringify(STUDENT));
  stubApi(answer);
  const client = newQueryClient();
  render(<CompletedChapters />, { client });
  await waitFor(() =>
    expect(client.getQueryState(progressQueries.completedChapters(STUDENT.id).queryKey)?.status).toBe('error'),
  );
  await settled();
  expect(fetch).toHaveBeenCalledWith('/api/students/3/completedChapters', expect.anything());
}

const answer = (status: number, code: string) => () => ({ status, body: { error: { code, message: 'x' } } });

describe('a failed completed-chapters call (spec 8, decision 015)', () => {
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
