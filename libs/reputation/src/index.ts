export { REPUTATION_DELTAS } from './reputation.rules';
export { ReputationRecorder } from './reputation.recorder';
export { ReputationModule } from './reputation.module';
export { PayerStanding } from './payer-standing';
export { CountMaturedSpend } from './usecases/count-matured-spend/count-matured-spend.usecase';
export { GetReputation } from './usecases/get-reputation/get-reputation.usecase';
export type { ReputationView } from './usecases/get-reputation/get-reputation.usecase';
export { GetLeaderboard } from './usecases/get-leaderboard/get-leaderboard.usecase';
export type { LeaderboardEntry } from './usecases/get-leaderboard/get-leaderboard.usecase';
export { escrowHoldSeconds, INITIAL_REPUTATION, reputationTier } from './reputation-tier';
export type { ReputationTier } from './reputation-tier';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { SPEND_MATURITY_GRACE_S } from './usecases/count-matured-spend/count-matured-spend.usecase';
