import { createHash } from 'node:crypto';
import { canonicalJson } from '@app/json-schema';

/** SHA-256 (hex) of a payload's canonical JSON: what dispute evidence states and a pruned row keeps. */
export const payloadSha256 = (value: unknown): string =>
  createHash('sha256').update(canonicalJson(value)).digest('hex');

/** What a run that moved no money keeps of its payloads. */
export interface UnchargedPayload {
  input: Record<string, unknown> | null;
  output: null;
  inputSha256: string | null;
  outputSha256: string | null;
}

/**
 * What a run that ended without moving money (failed, timed out, refused, settlement expired)
 * keeps: the SHA-256 of its input and output, and its input itself only when its canonical JSON is
 * at most `keepBytes` (UNCHARGED_INPUT_KEEP_BYTES: a retry sends the stored input). Its output is
 * never kept: nobody paid for it. Written in the transaction that records the end of the run.
 */
export function unchargedPayload(
  input: Record<string, unknown> | null,
  output: Record<string, unknown> | null,
  keepBytes: number,
): UnchargedPayload {
  const canonical = input === null ? null : canonicalJson(input);
  return {
    input: canonical !== null && Buffer.byteLength(canonical, 'utf8') <= keepBytes ? input : null,
    output: null,
    inputSha256: canonical === null ? null : createHash('sha256').update(canonical).digest('hex'),
    outputSha256: output === null ? null : payloadSha256(output),
  };
}
