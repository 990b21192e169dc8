import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { allRoutes } from '../../api/routes';
import { isDashboardOnly, routeScope, type RouteDef } from '../../api/http/route';
import { ALL_SCOPES } from '../../core/scopes';
import { http } from '../helpers/http';
import { recordFixtures } from '../fixtures';
import { useApiWorld } from '../helpers/world';

/**
 * Built from the router's own route table: a new route is covered without a new test.
 * For every authenticated route: no credential → 401; a credential lacking the route's scope
 * (or of the wrong kind) → 403; another team's credential on this team's records → 404.
 */
const routes = allRoutes().filter((r) => r.auth !== 'public');
const key = (r: RouteDef) => `${r.method.toUpperCase()} ${r.path}`;

function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? randomUUID()));
}

// Staff routes take a staff session: make team A's owner staff so the path checks of those routes run.
const w = useApiWorld({ other: true, staff: true });

describe.each(routes.map((r) => [key(r), r] as const))('%s', (_name, route) => {
  const needsSession = isDashboardOnly(route.auth) || (typeof route.auth === 'object' && 'staff' in route.auth);

  it('answers 401 invalid_token without a credential', async () => {
    const res = await http(w.app.baseUrl, route.method, fillPath(route.path, {}));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_token');
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('answers 403 to a credential without the right scope or kind', async () => {
    const scope = routeScope(route.auth);
    let token: string;
    let code: string;
    if (needsSession) {
      token = w.team.apiKey; // every scope, but not a dashboard session
      code = 'dashboard_only';
    } else {
      expect(scope).toBeDefined();
      token = await w.team.keyWith(ALL_SCOPES.filter((s) => s !== scope));
      code = 'insufficient_scope';
    }
    const res = await http(w.app.baseUrl, route.method, fillPath(route.path, {}), { token });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe(code);
  });

  const hasParams = /:[A-Za-z]/.test(route.path);
  const isStaff = typeof route.auth === 'object' && 'staff' in route.auth;
  if (hasParams && !isStaff) {
    it("answers 404 to another team's credential on this team's records", async () => {
      const fixture = recordFixtures[key(route)];
      if (!fixture) throw new Error(`Add a record fixture for "${key(route)}" in test/fixtures/`);
      const { params, body, query } = await fixture({ db: w.tdb.db, baseUrl: w.app.baseUrl, team: w.team });
      const qs = query ? `?${new URLSearchParams(query)}` : '';
      const token = needsSession ? w.other.session : w.other.apiKey;
      const res = await http(w.app.baseUrl, route.method, fillPath(route.path, params) + qs, { token, body });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      // And the owning team can reach the same record (so the 404 is about tenancy, not a bad fixture).
      const own = await http(w.app.baseUrl, route.method, fillPath(route.path, params) + qs, {
        token: needsSession ? w.team.session : w.team.apiKey,
        body: body ?? (route.body ? {} : undefined),
      });
      expect(own.status).not.toBe(404);
      expect(own.status).toBeLessThan(500);
    });
  }

  if (route.params instanceof z.ZodObject) {
    it('rejects a malformed id in the path with 400', async () => {
      const shape = (route.params as z.ZodObject).shape as Record<string, z.ZodType>;
      const bad = Object.fromEntries(Object.keys(shape).map((k) => [k, 'not-a-uuid']));
      if (route.params!.safeParse(bad).success) return; // slugs and free-text params accept this
      const token = needsSession ? w.team.session : w.team.apiKey;
      const res = await http(w.app.baseUrl, route.method, fillPath(route.path, bad), { token, body: route.body ? {} : undefined });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    });
  }
});
