import { AppException } from '@app/common';

/** A transaction can be disputed (or its unverified dispute confirmed) within `windowS` seconds of its completion. */
export function assertFilingWindowOpen(completedAt: Date, now: Date, windowS: number): void {
  const closesAt = new Date(completedAt.getTime() + windowS * 1000);
  if (now > closesAt) {
    throw new AppException(
      'DISPUTE_WINDOW_CLOSED',
      `A transaction can be disputed within ${windowS} seconds of its completion`,
      { closedAt: closesAt.toISOString() },
    );
  }
}
