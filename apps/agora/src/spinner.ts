import { createSpinner } from 'nanospinner';

export interface Progress {
  success(text: string): void;
  error(text: string): void;
}

/**
 * A spinner while something is awaited, on stderr. It animates only on a terminal that reports its
 * width: nanospinner counts the lines to erase as text length / columns, so a terminal reporting 0
 * columns (a pseudo-terminal without a size) made that Infinity and the erase loop never ended.
 * Anywhere else one line says what is awaited and one how it ended.
 */
export function progress(text: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY && (stream.columns ?? 0) > 0) {
    const spinner = createSpinner(text, { stream }).start();
    return { success: (t) => spinner.success({ text: t }), error: (t) => spinner.error({ text: t }) };
  }
  stream.write(`${text}...\n`);
  return { success: (t) => stream.write(`${t}\n`), error: (t) => stream.write(`${t}\n`) };
}
