export { retryAfterSeconds, TokenBuckets, type BucketRule, type Taken } from './token-bucket.js';
export { AUTHENTICATED_CONNECTION, markAuthenticated } from './authenticated-connection.js';
