/**
 * Runs `fn(0..count-1)` with at most `clients` in flight (a load of many clients, not one burst of
 * `count` sockets), answering the results in index order.
 */
export async function withClients<T>(count: number, clients: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(clients, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}
