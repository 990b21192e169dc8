// The one outbound HTTP client (docs/architecture.md, docs/webhooks.md "Outbound HTTP"): address
// checks against SSRF, DNS pinning, redirects, size and time bounds. Each feature passes its policy.
export type { OutboundPolicy } from './policy';
export { BlockedTargetError, checkSubscriptionUrl, resolveDeliveryTarget, resolveHost, type ResolvedTarget } from './resolve';
export { postPinned, RESPONSE_LOG_BYTES, type PostResult } from './post';
export { remoteFetch, RemoteFetchError, type FetchTrace, type RemoteFailure, type RemoteFetchOptions } from './fetch';
