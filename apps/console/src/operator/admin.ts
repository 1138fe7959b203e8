import { useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { paths } from '@agora/sdk';
import { ApiError } from '../api';
import { call } from '../actions';

/**
 * The operator's admin key: held in this module's memory for as long as the tab lives, never written
 * to localStorage, sessionStorage, a cookie or the URL, and never put in a query key (the query cache
 * holds answers only). Reloading the page forgets it.
 */
let adminKey: string | null = null;
const listeners = new Set<() => void>();

export function setAdminKey(key: string | null): void {
  adminKey = key;
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useAdminKey(): string | null {
  return useSyncExternalStore(subscribe, () => adminKey);
}

const headers = (): Record<string, string> => {
  if (!adminKey) throw new ApiError(401, 'UNAUTHORIZED', 'Enter the admin key first');
  return { 'X-Admin-Key': adminKey };
};

/** Whether `key` opens the operator's API (one read), before it is kept. */
export const checkAdminKey = (key: string) =>
  call<unknown>('GET', '/api/v1/admin/queues', undefined, { 'X-Admin-Key': key });

/** A GET of the operator's API with the key in memory. */
export const adminGet = <T>(path: string) => call<T>('GET', path, undefined, headers());

/** A POST of the operator's API (resolve, suspend, reinstate) with the key in memory. */
export const adminPost = <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}, headers());

type AdminPath = Extract<keyof paths, `/api/v1/admin/${string}`>;
type AdminData<P extends AdminPath> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': { data: infer D } } } } };
}
  ? D
  : never;

/** A typed admin read through TanStack Query, refreshed every few seconds while the key is held. */
export function useAdmin<P extends AdminPath>(path: P, query = '') {
  const key = useAdminKey();
  return useQuery({
    queryKey: ['admin', path, query],
    queryFn: () =>
      adminGet<AdminData<P>>(`${path}${query}`).catch((err: unknown) => {
        // A key refused (rotated, or revoked): forget it, and ask for the key again.
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) setAdminKey(null);
        throw err;
      }),
    enabled: key !== null,
    refetchInterval: 5_000,
    retry: 1,
  });
}
