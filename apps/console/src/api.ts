import createClient from 'openapi-fetch';
import { useQuery } from '@tanstack/react-query';
import type { paths } from '@agora/sdk';

/** The API, typed from docs/openapi.json (through the SDK's generated types); same origin as the console. */
export const api = createClient<paths>({ baseUrl: window.location.origin });

/** An answer of the API: the `data` of its `{ success, data }` envelope. */
type Data<T> = T extends { data: infer D } ? D : never;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The URL a GET asks for (shown on each page as its JSON twin). */
export function urlOf(path: string, params: Record<string, string | number | undefined> = {}): string {
  let url = path;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (url.includes(`{${k}}`)) url = url.replace(`{${k}}`, encodeURIComponent(String(v)));
    else query.set(k, String(v));
  }
  const qs = query.toString();
  return qs ? `${url}?${qs}` : url;
}

/** GET `url` (from urlOf) and unwrap the envelope; an error envelope becomes an ApiError. */
export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const body = (await res.json().catch(() => null)) as {
    success?: boolean;
    data?: T;
    error?: { code: string; message: string };
  } | null;
  if (!res.ok || !body?.success)
    throw new ApiError(res.status, body?.error?.code ?? 'HTTP_ERROR', body?.error?.message ?? `HTTP ${res.status}`);
  return body.data as T;
}

type GetPaths = { [P in keyof paths]: paths[P] extends { get: unknown } ? P : never }[keyof paths];
type GetData<P extends GetPaths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer B } } } };
}
  ? Data<B>
  : never;

/** A typed GET through TanStack Query: the data, its state and the URL it asked (the page's JSON twin). */
export function useApi<P extends GetPaths>(
  path: P,
  params: Record<string, string | number | undefined> = {},
  opts: { enabled?: boolean; refetchMs?: number } = {},
) {
  const url = urlOf(path, params);
  const query = useQuery({
    queryKey: [url],
    queryFn: () => getJson<GetData<P>>(url),
    enabled: opts.enabled ?? true,
    refetchInterval: opts.refetchMs,
    retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 2,
  });
  return { ...query, url };
}
