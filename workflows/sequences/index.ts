// Workflows of the sequences feature (exported through workflows/index.ts).
export * from './enrollment';
export * from './signals';
