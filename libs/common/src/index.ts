export { AppException, NotFoundException, UnavailableException, ValidationException } from './errors';
export type { ErrorCode, ErrorDetails, FieldError, PaymentOffer } from './errors';
export { bigintTransformer, formatMicros, Usdc } from './money';
export { isUuid, newId, newUuid } from './ids';
export { Clock, SystemClock } from './clock';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pagination';
export type { Page } from './pagination';
export { isWallet, normalizeWallet, sameWallet } from './wallet';
export { ClockModule } from './clock.module';
export { FaultInjector, InjectedFault } from './faults';
export { storableText, unstorablePath } from './storable';
export { exitGracefullyOnSignals } from './graceful-shutdown';
export { isHighS, recoverMessageSigner, recoverSigner } from './signatures';
export { checksumAddress, keccak256 } from './keccak';
export { sharedWhileRunning } from './shared-while-running';
export { addressKey } from './address-key';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { ERROR_CODES } from './errors';
export { FixedClock } from './clock';
