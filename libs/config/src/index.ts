export { AppConfig, loadConfigOrExit } from './config';
export type { PaymentNetwork, SettlementMode } from './config';
export { ConfigModule } from './config.module';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { DEV_PLATFORM_WALLET, loadConfig } from './config';
