import { AppConfig } from './app-config';
import { Reader } from './config-reader';

/** The withdrawal reserve and the reputation model's settings (resolutions §6-§7, issue 52). */
export function readReserveAndReputation(r: Reader, c: AppConfig): void {
  c.withdrawalReserve = r.oneOf('WITHDRAWAL_RESERVE', ['on', 'off'], 'on') === 'on';
  // The record is paid volume from funded payers (resolutions §6); RESERVE_MIN_EXECUTIONS and RESERVE_MIN_PAYERS are retired (ignored).
  c.reserveMinVolumeMicro = r.int('RESERVE_MIN_VOLUME_MICRO', 10_000_000, 0, Number.MAX_SAFE_INTEGER);
  c.reserveMinAgeS = r.int('RESERVE_MIN_AGE_S', 259_200, 0);
  // And that many distinct funded payers in it: one payer's circular spend establishes nothing (issue 52).
  c.reserveMinFundedPayers = r.int('RESERVE_MIN_FUNDED_PAYERS', 3, 1, 1_000);
  c.reputationPayerDailyCap = r.int('REPUTATION_PAYER_DAILY_CAP', 3, 0, 100);
  c.reputationPenaltyIntervalS = r.int('REPUTATION_PENALTY_INTERVAL_S', 3_600, 0);
  c.reputationModel = r.oneOf('REPUTATION_MODEL', ['weighted', 'spec'], 'weighted');
  c.fundedPayerMinSpendMicro = r.int('FUNDED_PAYER_MIN_SPEND_MICRO', 1_000_000, 1, Number.MAX_SAFE_INTEGER);
  c.reputationUnfundedPenaltyCap = r.int('REPUTATION_UNFUNDED_PENALTY_CAP', 5, 0, 100);
  c.reputationFundedPenaltyCap = r.int('REPUTATION_FUNDED_PENALTY_CAP', 10, 0, 100);
}
