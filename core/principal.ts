import type { Plan, Role, Scope } from './scopes';

export type CredentialKind = 'api_key' | 'session' | 'oauth';

/** Who is calling: resolved from the credential by the auth middleware. */
export interface Principal {
  kind: CredentialKind;
  credentialId: string;
  teamId: string;
  /** The acting user: the session's or token's user, or the API key's creator. */
  userId: string;
  /** The acting user's role: what the route table's roles and the scopes of every credential are capped by. */
  role: Role;
  scopes: ReadonlySet<Scope>;
  plan: Plan;
  isStaff: boolean;
  /** Requests a minute allowed for this credential. */
  perMinuteLimit: number;
  appId?: string;
}
