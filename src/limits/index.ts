export { retryAfterSeconds, TokenBuckets, type BucketRule, type Taken } from './token-bucket.js';
