import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api.ts';
import { App } from './App.tsx';
// The app's own sheets, one per part of the page, after the components' (imported through App):
// this order is the cascade, so a later sheet wins a tie of equal specificity.
import './styles/tokens.css';
import './styles/base.css';
import './styles/header.css';
import './styles/banners.css';
import './styles/main-area.css';
import './grid/grid-base.css';
import './panel/detail-panel.css';
import './styles/search.css';
import './styles/tables.css';
import './styles/status-bar.css';
import './styles/dialogs.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Catalog answers change only when the service says so (push events); see live.tsx.
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      // An ApiError is a real answer from the service; retrying will not change it.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError),
    },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
