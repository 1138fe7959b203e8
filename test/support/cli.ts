import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { RunningProcess, startProcess } from './processes';

export const CLI = join(__dirname, '..', '..', 'apps', 'agora', 'bin', 'agora.js');

export interface CliRun {
  code: number | null;
  out: string;
}

/** Runs the built `agora` with this base environment (plus `env`); answers exit code and stdout + stderr. */
export function cliRunner(base: () => Record<string, string>) {
  const start = (args: string[], env: Record<string, string> = {}): RunningProcess =>
    startProcess(CLI, { ...base(), ...env }, args);
  const agora = async (args: string[], env: Record<string, string> = {}): Promise<CliRun> => {
    const p = start(args, env);
    const code = await p.exited;
    return { code, out: p.output() };
  };
  const json = async (args: string[], env: Record<string, string> = {}) => {
    const r = await agora(['--json', ...args], env);
    let data: any;
    try {
      data = JSON.parse(r.out);
    } catch {
      throw new Error(`agora ${args.join(' ')} printed no JSON (exit ${r.code}):\n${r.out}`);
    }
    return { code: r.code, data };
  };
  return { start, agora, json };
}

/**
 * Runs `agora <args>` in a pseudo-terminal (util-linux `script`, whose terminal reports 0 columns
 * when it has no size); killed once it has written `maxBytes` (a runaway writer). Answers the exit
 * code (null: killed), what the terminal showed and whether it was killed.
 */
export async function inPseudoTerminal(args: string[], env: Record<string, string>, maxBytes = 1_000_000) {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let screen = '';
  let killed = false;
  const onData = (d: Buffer) => {
    if (killed) return;
    screen += d.toString();
    if (screen.length > maxBytes) {
      killed = true;
      process.kill(-child.pid!, 'SIGKILL');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  child.stdin.end();
  return { code: killed ? null : code, screen, killed };
}

/**
 * Runs `agora <args>` in a pseudo-terminal (util-linux `script`), answering each prompt when it
 * appears; answers exit code and everything the terminal showed.
 */
export async function answerInTerminal(args: string[], answers: [RegExp, string][], env: Record<string, string>) {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const pending = [...answers];
  const onData = (d: Buffer) => {
    screen += d.toString();
    while (pending.length && pending[0][0].test(screen)) {
      const [, answer] = pending.shift()!;
      screen += '\n';
      child.stdin.write(`${answer}\r`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  child.stdin.end();
  return { code, screen, unanswered: pending.length };
}
