import type { Plan, Scope } from './scopes';

export type CredentialKind = 'api_key' | 'session' | 'oauth';

/** Who is calling: resolved from the credential by the auth middleware. */
export interface Principal {
  kind: CredentialKind;
  credentialId: string;
  teamId: string;
  /** The acting user: the session's or token's user, or the team owner for an API key. */
  userId: string;
  scopes: ReadonlySet<Scope>;
  plan: Plan;
  isStaff: boolean;
  /** Requests a minute allowed for this credential. */
  perMinuteLimit: number;
  appId?: string;
}
