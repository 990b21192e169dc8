export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * A new password's problem, in words for the page, or null when it is acceptable: at least 10
 * characters (at most 200), and not built from the account's email address (the whole address or
 * the part before the @, whatever the case).
 */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`;
  const p = password.toLowerCase();
  const address = email.toLowerCase();
  const local = address.split('@')[0] ?? '';
  if (p.includes(address) || (local.length >= 3 && p.includes(local))) return 'The password must not contain your email address.';
  return null;
}
