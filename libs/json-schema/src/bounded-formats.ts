import type { Format, FormatDefinition } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats';
import { WorkMeter } from './work-meter';

/**
 * Longest string each string format is checked on; a longer string fails the format. The
 * formats are ajv-formats' "full" ones, whose regular expressions backtrack: most are linear
 * on hostile strings but cost up to ~100 ns a character (date-time, uri), and `url` is
 * quadratic (a 16 KiB string took 0.26 s). The caps are above any real value of the format.
 */
export const FORMAT_MAX_LENGTH: Readonly<Record<string, number>> = {
  date: 64,
  time: 64,
  'date-time': 128,
  'iso-time': 64,
  'iso-date-time': 128,
  duration: 128,
  email: 320,
  hostname: 255,
  ipv4: 64,
  ipv6: 64,
  uuid: 64,
  url: 2_048,
  uri: 8_192,
  'uri-reference': 8_192,
  'uri-template': 8_192,
  regex: 8_192,
  'json-pointer': 8_192,
  'json-pointer-uri-fragment': 8_192,
  'relative-json-pointer': 8_192,
};

/** Work units of checking a string of n characters (about the worst measured nanoseconds). */
function formatCost(name: string, n: number): number {
  if (name === 'url') return 200 + 2 * n * n;
  if (name === 'byte') return 200 + n * 20;
  return 200 + n * 100;
}

type StringCheck = (s: string) => boolean;
type Compare = (a: string, b: string) => number | undefined;

function checkOf(f: Format): StringCheck | null {
  if (f instanceof RegExp) return (s) => f.test(s);
  if (typeof f === 'function') return f as StringCheck;
  if (f && typeof f === 'object' && !(f instanceof RegExp)) return f.validate ? checkOf(f.validate as Format) : null;
  return null;
}

/**
 * ajv-formats' full formats with every string check paid to the meter before it runs and refused
 * beyond its length cap (base64 `byte` has no cap: it is linear and cheap, and paid per character).
 */
export function boundedFormats(meter: WorkMeter): Record<string, Format> {
  const out: Record<string, Format> = {};
  for (const [name, format] of Object.entries(fullFormats) as [string, Format][]) {
    const def =
      typeof format === 'object' && !(format instanceof RegExp)
        ? (format as { type?: string; compare?: unknown })
        : null;
    const check = checkOf(format);
    if (format === true || def?.type === 'number' || !check) {
      out[name] = format;
      continue;
    }
    const cap = FORMAT_MAX_LENGTH[name] ?? Number.POSITIVE_INFINITY;
    const validate = (s: string): boolean => {
      if (s.length > cap) return false;
      meter.spend(formatCost(name, s.length));
      return check(s);
    };
    const compare = def?.compare as Compare | undefined;
    out[name] = {
      type: 'string',
      validate,
      ...(compare && {
        compare: (a: string, b: string) => {
          if (a.length > cap || b.length > cap) return undefined;
          meter.spend(formatCost(name, a.length) + formatCost(name, b.length));
          return compare(a, b);
        },
      }),
    } as FormatDefinition<string>;
  }
  return out;
}
