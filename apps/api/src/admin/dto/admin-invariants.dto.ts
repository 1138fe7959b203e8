import { ApiProperty } from '@nestjs/swagger';
import { InvariantCheckRecord, InvariantHistory, InvariantStatusEntity } from '@app/ledger';

export class InvariantViolationsResponse {
  @ApiProperty({ example: 'I1', description: 'The invariant' }) id: string;
  @ApiProperty({ type: [String], description: 'Its first violations (at most 5), as the check describes them' })
  violations: string[];
}

export class InvariantCheckResponse {
  @ApiProperty({ description: 'Whether every money invariant held (false: payouts are paused)' }) ok: boolean;
  @ApiProperty({ type: [String], example: [], description: 'The invariants violated' }) failed: string[];
  @ApiProperty({ type: [InvariantViolationsResponse] }) violations: InvariantViolationsResponse[];
  @ApiProperty() checkedAt: string;
}

export class InvariantHistoryEntryResponse extends InvariantCheckResponse {
  @ApiProperty({ example: '42', description: 'Increasing with each entry kept' }) id: string;
}

export class InvariantHistoryResponse {
  @ApiProperty({
    type: InvariantCheckResponse,
    nullable: true,
    description: 'The last check (null: the worker has not checked yet)',
  })
  current: InvariantCheckResponse | null;
  @ApiProperty({
    type: [InvariantHistoryEntryResponse],
    description:
      'Newest first: a result is kept when it differs from the one before it (ok, or the invariants failed), ' +
      'and at least once an hour while it holds; kept 7 days',
  })
  history: InvariantHistoryEntryResponse[];
  @ApiProperty({ description: 'Entries kept' }) total: number;
}

const check = (c: InvariantStatusEntity | InvariantCheckRecord): InvariantCheckResponse => ({
  ok: c.ok,
  failed: c.failed,
  violations: c.violations,
  checkedAt: new Date(c.checkedAt).toISOString(),
});

export function toInvariantHistoryResponse(h: InvariantHistory): InvariantHistoryResponse {
  return {
    current: h.current ? check(h.current) : null,
    history: h.history.map((c) => ({ id: c.id, ...check(c) })),
    total: h.total,
  };
}
