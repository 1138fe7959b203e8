import 'reflect-metadata';
import { ConfigError, loadConfig } from '@app/config';
import { createApiApp } from './app.factory';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`agora api: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const app = await createApiApp(config);
  await app.listen(config.port, '0.0.0.0');
}

void main();
