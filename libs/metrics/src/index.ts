export { Metrics } from './metrics';
export { MetricsModule } from './metrics.module';
export { scrapeAuthorized } from './scrape-auth';
