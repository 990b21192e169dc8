// Workflows of the scheduling feature (exported through workflows/index.ts).
export * from './booking';
export * from './cleanup';
export * from './followup';
