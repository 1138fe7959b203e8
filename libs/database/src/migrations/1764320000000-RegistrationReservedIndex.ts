import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 53: the worker looks for registration fees reserved by a request that never settled them
 * (`PaymentsRepository.due`); execution reservations of failed runs stay `reserved` for good, so that
 * look-up reads only this small partial index, not every reservation.
 */
export class RegistrationReservedIndex1764320000000 implements MigrationInterface {
  name = 'RegistrationReservedIndex1764320000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "ix_payments_registration_reserved" ON "payments" ("created_at") WHERE "status" = 'reserved' AND "purpose" = 'registration'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_payments_registration_reserved"`);
  }
}
