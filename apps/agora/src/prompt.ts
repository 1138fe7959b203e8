import { createInterface } from 'node:readline';
import { CliError, EXIT } from './output';

function requireTty(what: string): void {
  if (!process.stdin.isTTY) throw new CliError(`${what} needs a terminal: set AGORA_PASSWORD, or pass --yes, when running without one`, EXIT.usage);
}

/** Reads a line without echoing it. */
export async function askSecret(question: string): Promise<string> {
  requireTty('A password prompt');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
  out._writeToOutput = (s: string) => {
    if (s.startsWith(question)) out.output.write(question);
  };
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    process.stderr.write('\n');
    rl.close();
  }
}

export async function confirm(question: string): Promise<boolean> {
  requireTty('A confirmation');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/N] `, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
