import { createServer } from 'node:net';

/*
 * Ports for processes that must be told theirs before they start (the api run as a child process).
 * Everything the test process serves itself listens on port 0, and anvil is started on port 0 and
 * says which port it got (scripts/local-chain.js). For the rest, each jest worker owns its own block
 * of ports below the Linux ephemeral range (32768-60999): the OS never hands one of them to a
 * port-0 listener or to an outgoing connection, and test files in parallel workers never pick the
 * same one. Something outside this jest run (another run on the same machine, a developer's server)
 * may still hold one, so a port is probed before it is handed out and `onFreePort` moves to the next
 * one when the start fails anyway.
 */
const FIRST_PORT = 20_000;
const BLOCK_SIZE = 500;
/** Blocks that fit between FIRST_PORT and the ephemeral range: 25 workers before two share one. */
const BLOCKS = Math.floor((32_768 - FIRST_PORT) / BLOCK_SIZE);

const worker = Number(process.env.JEST_WORKER_ID ?? '1');
const blockStart = FIRST_PORT + ((Number.isInteger(worker) && worker > 0 ? worker - 1 : 0) % BLOCKS) * BLOCK_SIZE;
/** Starts at a random offset so two jest runs on one machine rarely walk the same ports. */
let next = Math.floor(Math.random() * BLOCK_SIZE);

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    // No host: the api binds 0.0.0.0, so the probe must see listeners on any address.
    probe.listen({ port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The next port of this worker's block that nothing listens on right now. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < BLOCK_SIZE; tried++) {
    const port = blockStart + (next++ % BLOCK_SIZE);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${blockStart}-${blockStart + BLOCK_SIZE - 1} (jest worker ${worker})`);
}

/**
 * Runs `start` on a free port of this worker's block; when it fails (the port was taken between the
 * probe and the start), `start` must have cleaned up after itself, and it is tried on the next port.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (err) {
      if (attempt >= attempts) throw err;
    }
  }
}
