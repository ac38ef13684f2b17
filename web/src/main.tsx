import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18nReady } from './lib/i18n.ts';
import './index.css';
import { router } from './app/router.tsx';
import { forgetAnswersWhenThePersonChanges } from './lib/stored-user.ts';
import { retryRead, retryReadDelay } from './lib/queries.ts';
import { ReconnectingBanner } from './components/reconnecting-banner.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A school reconnecting to its database (503) is asked again, Retry-After apart (decision 061).
      retry: retryRead,
      retryDelay: retryReadDelay,
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
      <ReconnectingBanner />
    </QueryClientProvider>
  </StrictMode>,
);
