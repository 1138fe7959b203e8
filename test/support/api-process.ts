import { onFreePort } from './ports';
import { builtApp, RunningProcess, startProcess, waitFor } from './processes';

/** A built api started as its own process on a free port, answered once its health is 200 (killed if it never is). */
export async function startApiProcess(env: Record<string, string>): Promise<{ url: string; process: RunningProcess }> {
  return onFreePort(async (port) => {
    const p = startProcess(builtApp('api'), {
      ...env,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    try {
      await waitFor(async () => {
        if (p.child.exitCode !== null) throw new Error(`api exited on port ${port}:\n${p.output()}`);
        return (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null))?.status === 200;
      }, `api process on ${port}`);
    } catch (err) {
      p.child.kill('SIGKILL');
      await p.exited;
      throw err;
    }
    return { url: `http://127.0.0.1:${port}`, process: p };
  });
}
