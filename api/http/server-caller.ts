import { isIP } from 'node:net';
import type { Context } from 'koa';
import type { Db } from '../../db/knex';
import { unauthorized, validationFailed } from '../../core/errors';
import { authenticate, readCredential } from './auth';

/** The headers a server passes its visitor's address and user agent in (docs/getting-started.md "From your server"). */
export const VISITOR_IP_HEADER = 'X-Visitor-IP';
export const VISITOR_USER_AGENT_HEADER = 'X-Visitor-User-Agent';

/**
 * A public submission or booking sent by an integrator's server with its team's API key: counted
 * against the key's budget instead of the shared per-address bucket, and per visitor by the
 * address the server passes (docs/getting-started.md). The team is checked by the handler (or the
 * booking use case) against the form's or page's: another team's key is a 403.
 */
export interface ServerCaller {
  teamId: string;
  credentialId: string;
  /** The visitor's address, when the server passed one. */
  visitorIp: string | null;
  visitorUserAgent: string | null;
}

/** The server caller of a public request, or null when it carries no credential (a browser: as before). */
export async function readServerCaller(ctx: Context, db: Db): Promise<ServerCaller | null> {
  const token = readCredential(ctx);
  if (!token) return null;
  const p = await authenticate(db, token);
  if (p.kind !== 'api_key') throw unauthorized('A public endpoint takes an API key of the team (X-API-Key), or no credential');
  const ip = ctx.get(VISITOR_IP_HEADER).trim();
  if (ip && !isIP(ip))
    throw validationFailed([{ path: `headers.${VISITOR_IP_HEADER.toLowerCase()}`, message: 'must be an IPv4 or IPv6 address' }]);
  const ua = ctx.get(VISITOR_USER_AGENT_HEADER);
  const caller: ServerCaller = {
    teamId: p.teamId,
    credentialId: p.credentialId,
    visitorIp: ip || null,
    visitorUserAgent: ua ? ua.slice(0, 1000) : null,
  };
  ctx.state.serverCaller = caller;
  return caller;
}

/** The server caller the mount recorded for this request, if any. */
export function serverCallerOf(ctx: Context): ServerCaller | null {
  return (ctx.state.serverCaller as ServerCaller | undefined) ?? null;
}
