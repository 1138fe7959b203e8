export { AppConfig, DEV_PLATFORM_WALLET, loadConfig, loadConfigOrExit } from './config';
export type { NodeEnv, PaymentNetwork, SettlementMode } from './config';
export { ConfigModule } from './config.module';
