import password from '@inquirer/password';
import { createInterface } from 'node:readline';
import { CliError, EXIT } from './output';

function requireTty(what: string): void {
  if (!process.stdin.isTTY)
    throw new CliError(
      `${what} needs a terminal: set AGORA_PASSWORD, or pass --yes, when running without one`,
      EXIT.usage,
    );
}

/** Reads a secret without echoing it (@inquirer/password, on stderr so stdout stays the command's output). */
export async function askSecret(question: string): Promise<string> {
  requireTty('A password prompt');
  try {
    return await password({ message: question.trim() }, { output: process.stderr });
  } catch (err) {
    if ((err as Error)?.name === 'ExitPromptError') throw new CliError('No password given (cancelled)', EXIT.wallet);
    throw err;
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
