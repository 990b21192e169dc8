/** Every scope in the interface spec's table. */
export const ALL_SCOPES = [
  'forms:read',
  'forms:write',
  'forms:delete',
  'submissions:read',
  'submissions:write',
  'submissions:delete',
  'contacts:read',
  'contacts:write',
  'contacts:delete',
  'team:read',
  'team:write',
  'team:members',
  'webhooks:read',
  'webhooks:write',
  'scheduling:read',
  'scheduling:write',
  'scheduling:delete',
  'meetings:read',
  'meetings:write',
  'meetings:delete',
  'sequences:read',
  'sequences:write',
  'sequences:delete',
  'analytics:read',
  'user:read',
  'user:write',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

const MEMBER_EXCLUDED: ReadonlySet<Scope> = new Set(['team:write', 'team:members']);

/** A dashboard session carries every scope of its user's role. */
export function scopesForRole(role: string): Scope[] {
  if (role === 'owner' || role === 'admin') return [...ALL_SCOPES];
  return ALL_SCOPES.filter((s) => !MEMBER_EXCLUDED.has(s));
}

/** The scopes of `scopes` that `role` allows, in their order: all a credential made by that role may carry. */
export function withinRole(scopes: readonly string[], role: string): Scope[] {
  const allowed = new Set<string>(scopesForRole(role));
  return scopes.filter((s): s is Scope => allowed.has(s));
}

export function isScope(s: string): s is Scope {
  return (ALL_SCOPES as readonly string[]).includes(s);
}

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
