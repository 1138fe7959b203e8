import { Initial1763820000000 } from './1763820000000-Initial';
import { Ledger1763830000000 } from './1763830000000-Ledger';
import { Payments1763840000000 } from './1763840000000-Payments';
import { Execution1763850000000 } from './1763850000000-Execution';
import { ExecutionCallbacks1763860000000 } from './1763860000000-ExecutionCallbacks';
import { VariablePricing1763870000000 } from './1763870000000-VariablePricing';
import { Webhooks1763880000000 } from './1763880000000-Webhooks';
import { LedgerPostFunction1763890000000 } from './1763890000000-LedgerPostFunction';
import { ClaimGuard1763900000000 } from './1763900000000-ClaimGuard';
import { AgentConfigVersion1763910000000 } from './1763910000000-AgentConfigVersion';
import { PaymentSettling1763920000000 } from './1763920000000-PaymentSettling';
import { ChainSender1763930000000 } from './1763930000000-ChainSender';
import { Chains1763940000000 } from './1763940000000-Chains';
import { ChainReservations1763950000000 } from './1763950000000-ChainReservations';
import { Reputation1763960000000 } from './1763960000000-Reputation';
import { Disputes1763970000000 } from './1763970000000-Disputes';
import { SettlementExpired1763980000000 } from './1763980000000-SettlementExpired';
import { InvariantStatus1763990000000 } from './1763990000000-InvariantStatus';
import { TraceParent1764000000000 } from './1764000000000-TraceParent';
import { MarketIntegrity1764010000000 } from './1764010000000-MarketIntegrity';
import { RefundDust1764020000000 } from './1764020000000-RefundDust';
import { PayloadRetention1764032000000 } from './1764032000000-PayloadRetention';
import { AgentHealth1764100000000 } from './1764100000000-AgentHealth';
import { ConfigVersionTags1764110000000 } from './1764110000000-ConfigVersionTags';
import { PaymentStatusLookups1764125000000 } from './1764125000000-PaymentStatusLookups';
import { ExecutionReceipts1764126000000 } from './1764126000000-ExecutionReceipts';
import { ChainHeldOpen1764130000000 } from './1764130000000-ChainHeldOpen';
import { Series1764150000000 } from './1764150000000-Series';
import { ConsoleSessions1764160000000 } from './1764160000000-ConsoleSessions';
import { PayerExecutions1764170000000 } from './1764170000000-PayerExecutions';
import { ConsoleViews1764190000000 } from './1764190000000-ConsoleViews';
import { LedgerShards1764140000000 } from './1764140000000-LedgerShards';
import { InvariantHistory1764200000000 } from './1764200000000-InvariantHistory';
import { AdminReads1764210000000 } from './1764210000000-AdminReads';
import { AdminReadIndexes1764220000000 } from './1764220000000-AdminReadIndexes';
import { ReputationWeight1764230000000 } from './1764230000000-ReputationWeight';
import { UnchargedPayloads1764240000000 } from './1764240000000-UnchargedPayloads';
import { PlatformSecrets1764270000000 } from './1764270000000-PlatformSecrets';
import { DisputePayerProof1764280000000 } from './1764280000000-DisputePayerProof';
import { MaturedPayerSpend1764290000000 } from './1764290000000-MaturedPayerSpend';
import { ReputationVerdicts1764291000000 } from './1764291000000-ReputationVerdicts';
import { ReserveRecordAtUpgrade1764310000000 } from './1764310000000-ReserveRecordAtUpgrade';
import { RegistrationReservedIndex1764320000000 } from './1764320000000-RegistrationReservedIndex';
import { IdempotencyKeyExecutions1764300000000 } from './1764300000000-IdempotencyKeyExecutions';

/** Every migration, in order. Listed explicitly so bundled builds need no glob. */
export const MIGRATIONS = [
  Initial1763820000000,
  Ledger1763830000000,
  Payments1763840000000,
  Execution1763850000000,
  ExecutionCallbacks1763860000000,
  VariablePricing1763870000000,
  Webhooks1763880000000,
  LedgerPostFunction1763890000000,
  ClaimGuard1763900000000,
  AgentConfigVersion1763910000000,
  PaymentSettling1763920000000,
  ChainSender1763930000000,
  Chains1763940000000,
  ChainReservations1763950000000,
  Reputation1763960000000,
  Disputes1763970000000,
  SettlementExpired1763980000000,
  InvariantStatus1763990000000,
  TraceParent1764000000000,
  MarketIntegrity1764010000000,
  RefundDust1764020000000,
  PayloadRetention1764032000000,
  AgentHealth1764100000000,
  ConfigVersionTags1764110000000,
  PaymentStatusLookups1764125000000,
  ExecutionReceipts1764126000000,
  ChainHeldOpen1764130000000,
  LedgerShards1764140000000,
  Series1764150000000,
  ConsoleSessions1764160000000,
  PayerExecutions1764170000000,
  ConsoleViews1764190000000,
  InvariantHistory1764200000000,
  AdminReads1764210000000,
  AdminReadIndexes1764220000000,
  ReputationWeight1764230000000,
  UnchargedPayloads1764240000000,
  PlatformSecrets1764270000000,
  DisputePayerProof1764280000000,
  MaturedPayerSpend1764290000000,
  ReputationVerdicts1764291000000,
  IdempotencyKeyExecutions1764300000000,
  ReserveRecordAtUpgrade1764310000000,
  RegistrationReservedIndex1764320000000,
];
