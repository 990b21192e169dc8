/** `npm run gen:roles`: rewrite the role matrix of docs/accounts.md from the route table. */
import fs from 'node:fs';
import path from 'node:path';
import { allRoutes } from '../api/routes';
import { withRoleMatrix } from '../api/http/role-matrix';

const file = path.join(__dirname, '..', 'docs', 'accounts.md');
fs.writeFileSync(file, withRoleMatrix(fs.readFileSync(file, 'utf8'), allRoutes()));
process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
