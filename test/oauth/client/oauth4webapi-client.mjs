// A real third-party OAuth client (oauth4webapi, ESM) driven by test/oauth/flow.test.ts in a child
// process, because jest runs CommonJS. Input: one JSON argument; output: one JSON line.
import * as oauth from 'oauth4webapi';

const input = JSON.parse(process.argv[2]);
const { base, client_id, client_secret, redirect_uri, scope } = input;
const opts = { [oauth.allowInsecureRequests]: true };
const as = {
  issuer: base,
  authorization_endpoint: `${base}/api/oauth/authorize`,
  token_endpoint: `${base}/api/oauth/token`,
  revocation_endpoint: `${base}/api/oauth/revoke`,
};
const client = { client_id };
const auth = oauth.ClientSecretPost(client_secret);

async function start() {
  const code_verifier = oauth.generateRandomCodeVerifier();
  const code_challenge = await oauth.calculatePKCECodeChallenge(code_verifier);
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id,
    redirect_uri,
    response_type: 'code',
    scope,
    state,
    code_challenge,
    code_challenge_method: 'S256',
  }).toString();
  return { authorization_url: url.toString(), code_verifier, state };
}

async function callApi(token) {
  const res = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

async function finish() {
  const params = oauth.validateAuthResponse(as, client, new URL(input.callback_url), input.state);
  const tokenRes = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirect_uri, input.code_verifier, opts);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenRes);
  const apiRes = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${base}/api/v1/me`), undefined, undefined, opts);
  const api = { status: apiRes.status, body: await apiRes.json() };
  const refreshRes = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token, opts);
  const refreshed = await oauth.processRefreshTokenResponse(as, client, refreshRes);
  const apiAfterRefresh = await callApi(refreshed.access_token);
  const revokeRes = await oauth.revocationRequest(as, client, auth, refreshed.refresh_token, opts);
  await oauth.processRevocationResponse(revokeRes);
  const apiAfterRevoke = await callApi(refreshed.access_token);
  let refreshAfterRevoke;
  try {
    await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, refreshed.refresh_token, opts),
    );
    refreshAfterRevoke = 'succeeded';
  } catch (err) {
    refreshAfterRevoke = err.error ?? err.cause?.error ?? String(err);
  }
  return { tokens, api, refreshed, apiAfterRefresh, revokeStatus: revokeRes.status, apiAfterRevoke, refreshAfterRevoke };
}

const out = input.step === 'start' ? await start() : await finish();
process.stdout.write(`${JSON.stringify(out)}\n`);
