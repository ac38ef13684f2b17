import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError } from './lib/api.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18nReady } from './lib/i18n.ts';
import './index.css';
import { router } from './app/router.tsx';
import { forgetAnswersWhenThePersonChanges } from './lib/stored-user.ts';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A database that is reconnecting (503) is asked again a few times, a few seconds apart;
      // anything else once.
      retry: (failures, error) => failures < (error instanceof ApiError && error.status === 503 ? 5 : 1),
      retryDelay: (failures, error) =>
        error instanceof ApiError && error.status === 503 ? 3000 : 1000 * 2 ** failures,
      refetchOnWindowFocus: false,
    },
  },
});
forgetAnswersWhenThePersonChanges(() => queryClient.clear());

// The first language's texts are in before anything renders (Spanish is a file of its own).
await i18nReady;
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
