// The worker's workflow barrel: every workflow type is exported from here.
export * from './ping';
export * from './webhooks';
export * from './scheduling';
export * from './sequences';
export * from './app-review';
export * from './forms';
export * from './accounts';
export * from './mail';
export * from './calendars';
export * from './maintenance';
