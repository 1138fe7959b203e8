import { readFile } from 'node:fs/promises';
import { CliError, EXIT } from './output';

/** A JSON object given on the command line (`--input`), else a usage error. */
export function parseObject(text: string, flag: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new CliError(`${flag} must be a JSON object, e.g. '{"text":"hello"}'`, EXIT.usage);
}

/** A JSON object read from a file, else a usage error. */
export async function readJsonFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`Cannot read ${path}: ${(err as Error).message}`, EXIT.usage);
  }
  try {
    return parseObject(text, path);
  } catch {
    throw new CliError(`${path} is not a JSON object`, EXIT.usage);
  }
}

// An HTTP header name (RFC 9110 token) and a value of visible ASCII and spaces: what fetch would refuse otherwise.
const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\x21-\x7e][\x20-\x7e]*)$/;

/** `--payment NAME:VALUE` (the header that paid, as `execute --json` prints it), else a usage error. */
export function parsePayment(text: string | undefined): { name: string; value: string } | null {
  if (text === undefined) return null;
  const m = HEADER.exec(text.trim());
  if (!m)
    throw new CliError(
      '--payment must be the header that paid, as NAME:VALUE (e.g. PAYMENT-SIGNATURE:eyJ...)',
      EXIT.usage,
    );
  return { name: m[1], value: m[2] };
}

/** A whole number in [min, max] given as a flag, else a usage error. */
export function intOption(flag: string, min: number, max: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new CliError(`${flag} must be a whole number from ${min} to ${max}`, EXIT.usage);
    return n;
  };
}
