// First: it may start a conversation's requests while the rest of the app loads.
import './agents/earlyStart';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { ApiError } from './api/client';
import { router } from './router';
import './theme.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused or invalid request will not succeed by itself: no automatic retries for 4xx.
      retry: (n, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && n < 2,
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
