import { ComponentType, lazy, ReactElement, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import { ExplorerPage } from './pages/explorer';
import { AgentPage } from './pages/agent';
import { ExecutionPage } from './pages/execution';
import { ChainPage } from './pages/chain';
import { CONSOLE_ROUTES } from './routes';
import './styles.css';
import './charts.css';
import './views.css';

/** The sign-in page and its wallet code (viem's EIP-4361 message) load when it is opened. */
const SignInPage = lazy(() => import('./pages/sign-in').then((m) => ({ default: m.SignInPage })));
/** The signed-in views, each in its own chunk. */
const OwnerPage = lazy(() => import('./pages/owner').then((m) => ({ default: m.OwnerPage })));
const BuyerPage = lazy(() => import('./pages/buyer').then((m) => ({ default: m.BuyerPage })));
const OperatorPage = lazy(() => import('./pages/operator').then((m) => ({ default: m.OperatorPage })));

function Lazy({ page: Page }: { page: ComponentType }) {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <Page />
    </Suspense>
  );
}

const queries = new QueryClient({ defaultOptions: { queries: { staleTime: 5_000 } } });

/** Each route of CONSOLE_ROUTES (./routes: the list the api serves the page for) and its page (routes.spec.ts). */
const PAGES: Record<string, ReactElement> = {
  '/': <ExplorerPage />,
  '/agents/:id': <AgentPage />,
  '/executions/:requestId': <ExecutionPage />,
  '/chains/:id': <ChainPage />,
  '/sign-in': <Lazy page={SignInPage} />,
  '/owner': <Lazy page={OwnerPage} />,
  '/buyer': <Lazy page={BuyerPage} />,
  '/operator': <Lazy page={OperatorPage} />,
};

/** Any other path (the api answers it with a 404 and this page). */
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
          <Link to="/owner">Agent</Link>
          <Link to="/buyer">Payments</Link>
          <Link to="/operator">Operator</Link>
          <Link to="/sign-in">Sign in</Link>
        </nav>
      </header>
      <main id="main">
        <Routes>
          {CONSOLE_ROUTES.map((path) => (
            <Route key={path} path={path} element={PAGES[path]} />
          ))}
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
