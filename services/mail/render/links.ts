/**
 * The one link builder of every email: a path on the public site (`config.baseUrl`), and the host
 * name that Message-IDs are made under. Paths start with '/'.
 */
export function publicUrl(config: { baseUrl: string }, path: string): string {
  return `${config.baseUrl}${path}`;
}

/** The public site's host name, for Message-IDs (`localhost` when the base URL has none). */
export function mailHost(config: { baseUrl: string }): string {
  return new URL(config.baseUrl).hostname || 'localhost';
}
