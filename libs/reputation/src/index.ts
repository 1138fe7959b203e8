export * from './entities/reputation-event.entity';
export * from './reputation.rules';
export * from './reputation.recorder';
export * from './reputation.module';
export * from './usecases/get-reputation/get-reputation.usecase';
export * from './usecases/get-leaderboard/get-leaderboard.usecase';
