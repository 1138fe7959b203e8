import { randomBytes, randomUUID } from 'node:crypto';

/** Prefixed opaque ids (`tx_`, `wd_`, `dsp_`, `wh_`, `evt_`, `req_`). */
export type IdPrefix = 'tx' | 'wd' | 'dsp' | 'wh' | 'evt' | 'req' | 'dlv' | 'pay' | 'esc' | 'rfd' | 'ctx' | 'cs';

const POOL_BYTES = 12 * 512;
let pool = Buffer.alloc(0);
let offset = 0;

/** 12 fresh random bytes, cut from a pool the CSPRNG refills 512 ids at a time (one call instead of one per id). */
function random12(): Buffer {
  if (offset + 12 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += 12;
  return pool.subarray(offset - 12, offset);
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${random12().toString('base64url')}`;
}

export function newUuid(): string {
  return randomUUID();
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
