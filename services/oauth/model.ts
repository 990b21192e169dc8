import type { AppsRow } from '../../db/tables';
import { randomUUID } from 'node:crypto';
import type OAuth2Server from '@node-oauth/oauth2-server';
import { randomToken, safeEqual, sha256Hex } from '../../core/crypto';
import { withinRole } from '../../core/scopes';
import type { Db, Executor } from '../../db/knex';
import { redirectUriMatches } from '../../domain/app-checklist';
import { ACCESS_TOKEN_PREFIX } from './access-token-resolver';
import type { AppLive } from './apps';

export const REFRESH_TOKEN_PREFIX = 'svc_rt_';
export const CODE_PREFIX = 'svc_ac_';

export interface OAuthClient extends OAuth2Server.Client {
  id: string;
  teamId: string;
  name: string;
  approved: boolean;
  redirectUris: string[];
  scopes: string[];
}

type AppClientRow = Pick<AppsRow, 'id' | 'team_id' | 'name' | 'client_secret_hash' | 'redirect_uris' | 'scopes'> & { live: AppLive | null };

/** The app as an OAuth client: once approved, the approved version's redirect URIs and scopes apply. */
export async function findClient(db: Executor, clientId: string): Promise<{ client: OAuthClient; secretHash: string } | null> {
  if (clientId.length > 200) return null;
  const row: AppClientRow | undefined = await db('apps')
    .where({ client_id: clientId })
    .first('id', 'team_id', 'name', 'client_secret_hash', 'redirect_uris', 'scopes', 'live');
  if (!row) return null;
  const approved = row.live !== null;
  return {
    secretHash: row.client_secret_hash,
    client: {
      id: row.id,
      teamId: row.team_id,
      name: approved ? row.live!.name : row.name,
      approved,
      grants: ['authorization_code', 'refresh_token'],
      redirectUris: approved ? row.live!.redirect_uris : row.redirect_uris,
      scopes: approved ? row.live!.scopes : row.scopes,
    },
  };
}

/** Revoke every token of these families (refresh reuse, code reuse, disconnect). */
export async function revokeFamilies(db: Executor, filter: Record<string, string>): Promise<void> {
  await db('oauth_tokens')
    .whereIn('family_id', db('oauth_tokens').select('family_id').where(filter))
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
}

/** The @node-oauth/oauth2-server model: every function talks to Postgres; only hashes are stored. */
export function createModel(db: Db): OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel {
  return {
    async getClient(clientId, clientSecret) {
      const found = await findClient(db, clientId);
      // The authorize step passes null (no secret involved); the token step must authenticate.
      if (clientSecret === null) return found?.client ?? false;
      const ok = found
        ? safeEqual(sha256Hex(clientSecret ?? ''), found.secretHash)
        : safeEqual(sha256Hex(clientSecret ?? ''), sha256Hex(''));
      return found && clientSecret && ok ? found.client : false;
    },

    async validateRedirectUri(uri, client) {
      return redirectUriMatches((client as OAuthClient).redirectUris, uri);
    },

    async validateScope(user, client, scope) {
      if (!scope || scope.length === 0) return false;
      const allowed = new Set((client as OAuthClient).scopes);
      if (!scope.every((s) => allowed.has(s))) return false;
      // At consent (the user's role is known): only what the role allows is granted, as the consent
      // page showed. The code and its tokens carry that; each use is capped by the role again.
      const role = (user as { role?: string }).role;
      if (role === undefined) return scope;
      const granted = withinRole(scope, role);
      return granted.length ? granted : false;
    },

    generateAccessToken: async () => `${ACCESS_TOKEN_PREFIX}${randomToken(32)}`,
    generateRefreshToken: async () => `${REFRESH_TOKEN_PREFIX}${randomToken(32)}`,
    generateAuthorizationCode: async () => `${CODE_PREFIX}${randomToken(32)}`,

    async saveAuthorizationCode(code, client, user) {
      await db('oauth_codes').insert({
        team_id: user.teamId,
        app_id: client.id,
        user_id: user.id,
        code_hash: sha256Hex(code.authorizationCode),
        redirect_uri: code.redirectUri,
        scopes: code.scope ?? [],
        code_challenge: code.codeChallenge,
        code_challenge_method: code.codeChallengeMethod,
        expires_at: code.expiresAt,
      });
      return { ...code, client, user };
    },

    async getAuthorizationCode(code) {
      const row = await db('oauth_codes')
        .where({ code_hash: sha256Hex(code) })
        .first();
      if (!row) return false;
      if (row.used_at) {
        // A second use: revoke whatever the first use issued (RFC 6749 §4.1.2).
        await revokeFamilies(db, { code_id: row.id });
        return false;
      }
      return {
        authorizationCode: code,
        expiresAt: new Date(row.expires_at),
        redirectUri: row.redirect_uri,
        scope: row.scopes,
        codeChallenge: row.code_challenge,
        codeChallengeMethod: row.code_challenge_method,
        client: { id: row.app_id, grants: [] },
        user: { id: row.user_id, teamId: row.team_id, codeId: row.id },
      };
    },

    async revokeAuthorizationCode(code) {
      const n = await db('oauth_codes').where({ id: code.user.codeId }).whereNull('used_at').update({ used_at: db.fn.now() });
      if (!n) await revokeFamilies(db, { code_id: code.user.codeId });
      return n > 0;
    },

    async saveToken(token, client, user) {
      await db.transaction(async (trx) => {
        await trx('oauth_tokens').insert({
          team_id: user.teamId,
          app_id: client.id,
          user_id: user.id,
          family_id: user.familyId ?? randomUUID(),
          code_id: user.codeId ?? null,
          access_hash: sha256Hex(token.accessToken),
          refresh_hash: token.refreshToken ? sha256Hex(token.refreshToken) : null,
          scopes: token.scope ?? [],
          access_expires_at: token.accessTokenExpiresAt,
          refresh_expires_at: token.refreshTokenExpiresAt ?? null,
        });
        if (user.codeId) {
          // The first token of a grant installs the app for this user (or renews the install).
          await trx('app_installs')
            .insert({ team_id: user.teamId, app_id: client.id, user_id: user.id, scopes: token.scope ?? [] })
            .onConflict(['app_id', 'user_id'])
            .merge({ scopes: token.scope ?? [], revoked_at: null, updated_at: trx.fn.now() });
        }
      });
      return { ...token, client, user };
    },

    async getRefreshToken(refreshToken) {
      const row = await db('oauth_tokens')
        .where({ refresh_hash: sha256Hex(refreshToken) })
        .first();
      if (!row || row.revoked_at) return false;
      if (row.rotated_at) {
        // Reuse of a rotated refresh token: someone holds a stolen copy. Revoke the whole family.
        await revokeFamilies(db, { id: row.id });
        return false;
      }
      return {
        refreshToken,
        refreshTokenExpiresAt: row.refresh_expires_at ? new Date(row.refresh_expires_at) : undefined,
        scope: row.scopes,
        client: { id: row.app_id, grants: [] },
        user: { id: row.user_id, teamId: row.team_id, familyId: row.family_id, tokenId: row.id },
      };
    },

    async revokeToken(token) {
      const n = await db('oauth_tokens')
        .where({ id: token.user.tokenId })
        .whereNull('rotated_at')
        .whereNull('revoked_at')
        .update({ rotated_at: db.fn.now() });
      if (!n) await revokeFamilies(db, { id: token.user.tokenId });
      return n > 0;
    },

    async getAccessToken() {
      // API calls resolve access tokens in access-token-resolver.ts; the library's authenticate() is not used.
      return false;
    },
  };
}
