import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { TEST_CLOCK_MAX_SECONDS, TestClockAdvance } from '@app/disputes';

export class AdvanceTestClockDto {
  @ApiProperty({
    example: 86_400,
    minimum: 1,
    maximum: TEST_CLOCK_MAX_SECONDS,
    description: 'How far to move the clock, in seconds',
  })
  @IsInt()
  @Min(1)
  @Max(TEST_CLOCK_MAX_SECONDS)
  seconds: number;
}

export class TestClockShiftedResponse {
  @ApiProperty({ description: 'Held escrows whose release time moved' }) escrowHolds: number;
  @ApiProperty({
    description: 'Charges whose completion moved (their dispute filing window and the withdrawal reserve)',
  })
  transactions: number;
  @ApiProperty({ description: 'Pending and processing withdrawals whose retry or claim time moved' })
  withdrawals: number;
  @ApiProperty({ description: 'Refunds whose retry or claim time moved' }) refunds: number;
  @ApiProperty({ description: 'Pending disputes whose response deadline moved' }) disputes: number;
}

export class TestClockDoneResponse {
  @ApiProperty() escrowReleased: number;
  @ApiProperty({ description: 'Pending disputes past their response window, resolved for the client' })
  disputesResolved: number;
  @ApiProperty() withdrawalsProcessed: number;
  @ApiProperty() refundsProcessed: number;
}

export class TestClockAdvanceResponse {
  @ApiProperty() seconds: number;
  @ApiProperty({ description: 'Always false: the test clock exists only in local settlement' }) livemode: boolean;
  @ApiProperty({ type: TestClockShiftedResponse }) shifted: TestClockShiftedResponse;
  @ApiProperty({ type: TestClockDoneResponse }) done: TestClockDoneResponse;
}

export function toTestClockAdvanceResponse(a: TestClockAdvance): TestClockAdvanceResponse {
  return { seconds: a.seconds, livemode: false, shifted: a.shifted, done: a.done };
}
