/**
 * The web tests' one toolkit: render a page as the app does (query client, router, i18n), answer
 * its API calls, find controls as people do (by label, by button name), act on them, and wait for
 * the outcome instead of sleeping. Every page rendered is unmounted after its test.
 *
 * The console-error guard (STYLE 7) is the test rig's setup file, installed before each test:
 * an act() warning fails the test that caused it.
 */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, Route, Routes, type InitialEntry } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, expect, vi } from 'vitest';
import '../lib/i18n.ts';

type ActEnvironment = { IS_REACT_ACT_ENVIRONMENT?: boolean };
(globalThis as ActEnvironment).IS_REACT_ACT_ENVIRONMENT = true;

const mounted: Root[] = [];
const clients: QueryClient[] = [];
let callsInFlight = 0;

afterEach(() => {
  unmountAll();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  localStorage.clear();
  sessionStorage.clear();
});

export interface RenderOptions {
  /** Where the router starts: a path, or a path with navigation state. */
  at?: InitialEntry;
  /** The route pattern the page answers (so it can read its params); without it, the page is the only element. */
  path?: string;
  /** What any other address shows, to see where the page went. */
  elsewhere?: ReactNode;
  /** The test's own query client, to look at its cache; a fresh one without retries by default. */
  client?: QueryClient;
}

/** Mounts `page` inside a fresh query client (no retries) and a memory router; returns its container. */
export function render(
  page: ReactNode,
  { at = '/', path, elsewhere, client = newQueryClient() }: RenderOptions = {},
): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push(root);
  clients.push(client);
  act(() =>
    root.render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[at]}>
          {path === undefined ? (
            page
          ) : (
            <Routes>
              <Route path={path} element={page} />
              {elsewhere !== undefined && <Route path="*" element={elsewhere} />}
            </Routes>
          )}
        </MemoryRouter>
      </QueryClientProvider>,
    ),
  );
  return container;
}

/** A query client as the tests use it: a failed query fails at once, without retries. */
export const newQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

/** Unmounts every page rendered so far (nothing of one page runs on into the next). */
export function unmountAll(): void {
  act(() => {
    for (const root of mounted.splice(0)) root.unmount();
  });
  for (const client of clients.splice(0)) client.clear();
}

export type FetchCall = [url: string, init?: RequestInit];
const PUBLIC_CONFIG_URL = '/api/public/config';
export interface Answer {
  status?: number;
  body: unknown;
}

/**
 * Answers every API call with `answer(url, init)` as JSON (status 200 unless it says otherwise);
 * an answer that throws or rejects is a failed fetch (a network error, an aborted call).
 */
export function stubApi(answer: (url: string, init?: RequestInit) => Answer | Promise<Answer>) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    callsInFlight += 1;
    try {
      const { status = 200, body } = await answer(url, init);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    } finally {
      callsInFlight -= 1;
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  // Every page heading asks for the school's name (for the tab's title): the calls a test looks
  // at are the page's own.
  const calls = () => (fetchMock.mock.calls as FetchCall[]).filter(([url]) => url !== PUBLIC_CONFIG_URL);
  return {
    fetch: fetchMock,
    calls,
    /** The calls as method, URL and parsed JSON body. */
    requests: () =>
      calls().map(([url, init]) => ({
        method: init?.method ?? 'GET',
        url,
        body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined,
      })),
  };
}

/** The parsed JSON body of a recorded call. */
export const bodyOf = (call: FetchCall | undefined): unknown => JSON.parse(String(call?.[1]?.body));

/**
 * Waits until `check` stops throwing and returns what it returned, as Testing Library's waitFor
 * does: React may update outside act() meanwhile (the answers arrive from fetch); what follows
 * the wait is back under act().
 */
export async function waitFor<T>(check: () => T, { timeout = 3000 } = {}): Promise<T> {
  const environment = globalThis as ActEnvironment;
  const previous = environment.IS_REACT_ACT_ENVIRONMENT;
  environment.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    return await vi.waitFor(check, { timeout, interval: 5 });
  } finally {
    environment.IS_REACT_ACT_ENVIRONMENT = previous;
  }
}

/**
 * Waits until every API call has been answered and every query and mutation has settled, and
 * React has rendered the outcome: for a test that checks something did not happen, or many things.
 * The wait is inside act(), so what React does meanwhile is rendered before it returns.
 */
export async function settled({ timeout = 3000 } = {}): Promise<void> {
  const busy = () =>
    callsInFlight + clients.reduce((sum, client) => sum + client.isFetching() + client.isMutating(), 0);
  // An answer may start another call (a query enabled by it, a refetch), and React may render
  // after the last answer: settled is idle, and the page unchanged, after one more turn.
  let shown: string | null = null;
  for (let round = 0; round < 50; round += 1) {
    await act(async () => {
      await vi.waitFor(
        () => {
          if (busy() > 0) throw new Error(`${String(busy())} calls still running`);
        },
        { timeout, interval: 5 },
      );
      // react-query hands its results to React on the next task.
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
    });
    const now = document.body.innerHTML;
    if (busy() === 0 && now === shown) return;
    shown = now;
  }
  throw new Error('the calls never settled');
}

/** Waits for the first element matching `selector` (and containing `text`, when given). */
export function find<E extends Element = HTMLElement>(
  container: ParentNode,
  selector: string,
  text?: string | RegExp,
): Promise<E> {
  return waitFor(() => {
    const found = [...container.querySelectorAll<E>(selector)].find((element) =>
      text === undefined ? true : matches(element.textContent ?? '', text),
    );
    if (!found) throw new Error(`no ${selector}${text === undefined ? '' : ` with ${String(text)}`} yet`);
    return found;
  });
}

/** Waits until the container's text contains `text`. */
export function findText(container: Element, text: string | RegExp): Promise<void> {
  return waitFor(() => {
    const shown = container.textContent ?? '';
    if (typeof text === 'string') expect(shown).toContain(text);
    else expect(shown).toMatch(text);
  });
}

const matches = (shown: string, text: string | RegExp) =>
  typeof text === 'string' ? shown.includes(text) : text.test(shown);

/** The input or select whose <label> reads exactly `label`; throws when there is none. */
export function byLabel(container: ParentNode, label: string): HTMLInputElement | HTMLSelectElement {
  const found = [...container.querySelectorAll('label')].find((element) => element.textContent === label);
  const control =
    found && container.querySelector<HTMLInputElement | HTMLSelectElement>(`[id="${CSS.escape(found.htmlFor)}"]`);
  if (!control) throw new Error(`no control labelled ${label}`);
  return control;
}

/** Every button whose text is exactly `name`. */
export const buttonsNamed = (container: ParentNode, name: string): HTMLButtonElement[] =>
  [...container.querySelectorAll('button')].filter((button) => button.textContent === name);

/** The first button whose text is exactly `name`, if any. */
export const buttonNamed = (container: ParentNode, name: string): HTMLButtonElement | undefined =>
  buttonsNamed(container, name)[0];

/** Types as a person does: React hears the input (or, for a select, change) event. */
export async function typeInto(container: ParentNode, label: string, value: string): Promise<void> {
  await setValue(byLabel(container, label), value);
}

/** Sets a control's value through the native setter and fires the event React listens to. */
export async function setValue(
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  value: string,
): Promise<void> {
  await act(async () => {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), 'value')?.set?.call(control, value);
    control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

/** Clicks an element inside act(); throws when there is nothing to click. */
export async function click(element: Element | null | undefined): Promise<void> {
  if (!element) throw new Error('nothing to click');
  await act(async () => {
    (element as HTMLElement).click();
  });
}

/** Submits a form as its submit button would. */
export async function submit(form: HTMLFormElement | null | undefined): Promise<void> {
  if (!form) throw new Error('no form to submit');
  await act(async () => {
    form.requestSubmit();
  });
}
