import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { allRoutes } from '../../api/routes';
import { isDashboardOnly, routeRoles, type RouteDef } from '../../api/http/route';
import { withRoleMatrix } from '../../api/http/role-matrix';
import { ROLES, scopesForRole, type Role } from '../../core/scopes';
import { createApiKey } from '../../services/api-keys';
import { createSession } from '../../services/sessions';
import { addMember } from '../../services/team';
import { http } from '../helpers/http';
import { useApiWorld } from '../helpers/world';
import { testConfig } from '../helpers/config';

/**
 * Roles on the route table (docs/accounts.md "Roles by route"): every authenticated route, called
 * with an owner's, an admin's and a member's session, and with a key each of them made (every
 * scope of their role). A role the route does not list must get 403; a listed one must get past
 * the gate (the route's own answer: 400 for an empty body, 404 for a random id, 200…).
 */
const routes = allRoutes().filter((r) => r.auth !== 'public' && !(typeof r.auth === 'object' && 'staff' in r.auth));
const key = (r: RouteDef) => `${r.method.toUpperCase()} ${r.path}`;
const fillPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, () => randomUUID());

const users = {} as Record<Role, string>;
const keys = {} as Record<Role, string>;

const w = useApiWorld();
beforeAll(async () => {
  users.owner = w.team.userId;
  for (const role of ['admin', 'member'] as const) {
    const u = await addMember(
      { db: w.tdb.db, config: testConfig() },
      { teamId: w.team.teamId, values: { email: `${role}-${randomUUID()}@example.com`, role, password: 'a long password 1' } },
    );
    users[role] = u.id;
  }
  for (const role of ROLES) {
    keys[role] = (
      await createApiKey({ db: w.tdb.db }, { teamId: w.team.teamId, scopes: scopesForRole(role), createdBy: users[role] })
    ).secret;
  }
});

test('every authenticated route declares its roles (a scope, or auth.roles)', () => {
  const missing = routes.filter((r) => !routeRoles(r.auth)?.length).map(key);
  expect(missing).toEqual([]);
});

test('docs/accounts.md holds the role matrix of the route table (npm run gen:roles)', () => {
  const file = path.join(__dirname, '..', '..', 'docs', 'accounts.md');
  const doc = fs.readFileSync(file, 'utf8');
  expect(doc).toBe(withRoleMatrix(doc, allRoutes()));
});

describe.each(routes.map((r) => [key(r), r] as const))('%s', (_name, route) => {
  const allowed = routeRoles(route.auth) ?? [];
  it.each(ROLES.flatMap((role) => [[role, 'session'] as const, [role, 'key'] as const]))('%s %s', async (role, kind) => {
    // A fresh session for each call: logout and revoke-others must not end the others' sessions.
    const token = kind === 'session' ? (await createSession(w.tdb.db, { userId: users[role] })).token : keys[role];
    const res = await http(w.app.baseUrl, route.method, fillPath(route.path), { token, body: route.body ? {} : undefined });
    if (kind === 'key' && isDashboardOnly(route.auth)) {
      expect(res.body.error?.code).toBe('dashboard_only');
    } else if (!allowed.includes(role)) {
      expect(res.status).toBe(403);
      expect(['forbidden', 'insufficient_scope']).toContain(res.body.error.code);
    } else {
      expect(res.status).not.toBe(401);
      expect(res.status).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    }
  });
});
