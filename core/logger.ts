import pino from 'pino';

const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info');

/** One logger for every process. Secrets are redacted by path. */
export const logger = pino({
  level,
  redact: {
    paths: [
      'req.headers.authorization',
      'req.headers["x-api-key"]',
      'req.headers.cookie',
      '*.password',
      '*.client_secret',
      '*.secret',
      '*.token',
      '*.api_key',
      '*.refresh_token',
      '*.access_token',
    ],
    censor: '[redacted]',
  },
});
