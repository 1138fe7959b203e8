import routes from './routes.json';

/**
 * The console's pages, as React Router paths: the one list of them (routes.json, data that the api's
 * tests read too). `main.tsx` routes each to its page (any other path renders the not-found view),
 * and the build ships the list beside the page (ROUTES_FILE, vite.config.ts), from which the api
 * answers these paths with the page and any other with a 404 (apps/api/src/http/console.ts).
 * `routes.spec.ts` fails when main.tsx routes a path that is not here.
 */
export const CONSOLE_ROUTES: readonly string[] = routes;

/** The file of the build that carries CONSOLE_ROUTES (a JSON array), beside index.html. */
export const ROUTES_FILE = 'routes.json';
