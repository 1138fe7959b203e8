import { randomBytes, randomUUID } from 'node:crypto';

/** Prefixed opaque ids (`tx_`, `wd_`, `dsp_`, `wh_`, `evt_`, `req_`). */
export type IdPrefix = 'tx' | 'wd' | 'dsp' | 'wh' | 'evt' | 'req' | 'dlv' | 'pay' | 'esc' | 'rfd';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

export function newUuid(): string {
  return randomUUID();
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
