import { dropTestDatabases, withAdmin } from './test-env';

export default async function globalTeardown(): Promise<void> {
  await withAdmin(dropTestDatabases);
}
