import OAuth2Server from '@node-oauth/oauth2-server';
import type { Db } from '../../db/knex';
import { createModel } from './model';

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 60 * 24 * 3600;
export const CODE_TTL_S = 600;

const servers = new WeakMap<Db, OAuth2Server>();

/** One library server per database handle; its model talks to Postgres. */
export function oauthServer(db: Db): OAuth2Server {
  let s = servers.get(db);
  if (!s) {
    s = new OAuth2Server({
      model: createModel(db),
      accessTokenLifetime: ACCESS_TOKEN_TTL_S,
      refreshTokenLifetime: REFRESH_TOKEN_TTL_S,
      authorizationCodeLifetime: CODE_TTL_S,
      allowEmptyState: false,
      allowBearerTokensInQueryString: false,
      alwaysIssueNewRefreshToken: true,
      // enablePlainPKCE defaults to false: "plain" is refused (and our authorize step requires S256).
      requireClientAuthentication: { authorization_code: true, refresh_token: true },
    });
    servers.set(db, s);
  }
  return s;
}
