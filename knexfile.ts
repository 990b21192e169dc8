import { migrationSource } from './db/migrations';

// For the knex CLI (`npx knex --knexfile knexfile.ts migrate:status`). The app migrates itself on start.
module.exports = {
  client: 'pg',
  connection: process.env.DATABASE_URL,
  migrations: { migrationSource },
};
