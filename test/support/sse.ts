/** A server-sent events stream read in a test: its events as they arrive, and how to close it. */
export interface SseStream {
  status: number;
  /** The body when the answer was not a stream (an error envelope). */
  body: unknown;
  events: { event: string; id?: string; data: unknown }[];
  /** Resolves with the first event (already received or to come) that `match` accepts, or fails after `ms`. */
  next(match: (e: { event: string; data: unknown }) => boolean, ms: number): Promise<{ event: string; data: unknown }>;
  close(): void;
}

export async function openSse(url: string): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
  const events: SseStream['events'] = [];
  const waiters: (() => void)[] = [];
  const stream: SseStream = {
    status: res.status,
    body: null,
    events,
    async next(match, ms) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event within ${ms} ms (got ${events.length})`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(t), resolve()));
        });
      }
    },
    close: () => abort.abort(),
  };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    stream.body = await res.json();
    return stream;
  }
  void (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) =>
            block
              .split('\n')
              .filter((l) => l.startsWith(`${name}:`))
              .map((l) => l.slice(name.length + 1).trimStart())
              .join('\n');
          const data = field('data');
          events.push({
            event: field('event') || 'message',
            id: field('id') || undefined,
            data: data ? JSON.parse(data) : null,
          });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // Closed by the test (abort) or by the server.
    }
  })();
  return stream;
}
