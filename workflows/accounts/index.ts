export * from './contract';
export * from './invitation';
export * from './account-email';
