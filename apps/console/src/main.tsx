import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import { ExplorerPage } from './pages/explorer';
import { AgentPage } from './pages/agent';
import { ExecutionPage } from './pages/execution';
import { ChainPage } from './pages/chain';
import './styles.css';
import './charts.css';

/** The sign-in page and its wallet code (viem's EIP-4361 message) load when it is opened. */
const SignInPage = lazy(() => import('./pages/sign-in').then((m) => ({ default: m.SignInPage })));

const queries = new QueryClient({ defaultOptions: { queries: { staleTime: 5_000 } } });

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        Nothing lives at this address. <Link to="/">Back to the explorer</Link>.
      </p>
    </>
  );
}

function App() {
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <nav aria-label="Main">
          <Link to="/" className="brand">
            agora
          </Link>
          <Link to="/">Explorer</Link>
          <a href="/api/docs">API</a>
          <Link to="/sign-in">Sign in</Link>
        </nav>
      </header>
      <main id="main">
        <Routes>
          <Route path="/" element={<ExplorerPage />} />
          <Route path="/agents/:id" element={<AgentPage />} />
          <Route path="/executions/:requestId" element={<ExecutionPage />} />
          <Route path="/chains/:id" element={<ChainPage />} />
          <Route
            path="/sign-in"
            element={
              <Suspense fallback={<p role="status">Loading…</p>}>
                <SignInPage />
              </Suspense>
            }
          />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </main>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
