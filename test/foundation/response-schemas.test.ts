import { allRoutes } from '../../api/routes';
import { isRawResponse } from '../../api/http/route';

/**
 * Every route declares what it answers (api/http/route.ts `response`), so the OpenAPI document shows
 * it and the test app can check each real answer against it (api/http/response-check.ts). A route
 * added without one fails here, by name.
 */
describe('response schemas', () => {
  const routes = allRoutes();

  it('every route that answers a body declares its response', () => {
    const missing = routes.filter((r) => (r.status ?? 200) !== 204 && !r.response).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('a 204 route declares no body (unless another status answers one), only a raw route names a media type', () => {
    const wrong = routes
      .filter((r) => ((r.status ?? 200) === 204 && r.response && !r.alsoFor?.length) || (!r.raw && isRawResponse(r.response)))
      .map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(wrong).toEqual([]);
  });
});
