import { ApplicationFailure } from '@temporalio/activity';
import { ZoomPermanentError, ZoomRateLimitedError } from '../core/video/zoom-api';

/**
 * Zoom's answers as Temporal sees them (docs/scheduling.md "Zoom"): a 429 is retried after Zoom's
 * Retry-After (nextRetryDelay) instead of the policy's backoff; a permanent 4xx is not retried.
 */
export async function withZoomFailures<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ZoomRateLimitedError) {
      throw ApplicationFailure.create({ message: err.message, type: 'ZoomRateLimited', nextRetryDelay: err.retryAfterMs });
    }
    if (err instanceof ZoomPermanentError)
      throw ApplicationFailure.create({ message: err.message, type: 'ZoomRefused', nonRetryable: true });
    throw err;
  }
}
