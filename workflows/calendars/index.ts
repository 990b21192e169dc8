// Workflows of the calendars feature (exported through workflows/index.ts).
export * from './sync';
