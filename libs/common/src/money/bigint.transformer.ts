import { ValueTransformer } from 'typeorm';

/** node-postgres returns BIGINT as a string; map it to bigint, never to number. */
export const bigintTransformer: ValueTransformer = {
  to: (value: bigint | null | undefined) => (value === null || value === undefined ? value : value.toString()),
  from: (value: string | null) => (value === null ? null : BigInt(value)),
};
