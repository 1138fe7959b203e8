import { Initial1763820000000 } from './1763820000000-Initial';

/** Every migration, in order. Listed explicitly so bundled builds need no glob. */
export const MIGRATIONS = [Initial1763820000000];
