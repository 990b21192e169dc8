/** Drive the login and consent pages over plain HTTP (as a browser would, without one). */

function cookieJar() {
  const jar = new Map<string, string>();
  return {
    store(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
    },
    header: () => [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[m[1]] = m[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return out;
}

export interface FormFlowResult {
  /** The Location of the final redirect to the client (or null if none). */
  location: string | null;
  status: number;
  consentHtml?: string;
}

/** GET the authorization URL, sign in, and approve or deny. */
export async function authorizeWithForms(
  authorizationUrl: string,
  user: { email: string; password: string },
  decision: 'approve' | 'deny' = 'approve',
): Promise<FormFlowResult> {
  const jar = cookieJar();
  const base = new URL(authorizationUrl).origin;
  const first = await fetch(authorizationUrl, { redirect: 'manual' });
  jar.store(first);
  if (first.status !== 200) return { location: first.headers.get('location'), status: first.status };
  const login = hiddenFields(await first.text());
  const loginRes = await fetch(`${base}/api/oauth/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams({ ...login, email: user.email, password: user.password }).toString(),
  });
  jar.store(loginRes);
  if (loginRes.status !== 303) return { location: null, status: loginRes.status };
  const consent = await fetch(new URL(loginRes.headers.get('location')!, base), { redirect: 'manual', headers: { cookie: jar.header() } });
  if (consent.status !== 200) return { location: consent.headers.get('location'), status: consent.status };
  const consentHtml = await consent.text();
  const fields = hiddenFields(consentHtml);
  const decided = await fetch(`${base}/api/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams({ ...fields, decision }).toString(),
  });
  return { location: decided.headers.get('location'), status: decided.status, consentHtml };
}
