export type { NewEndpoint, WebhookActions } from './actions.js';
export { addEndpoint, type EndpointRules } from './add-endpoint.js';
export { deliverMessage, retryPause, type DeliveryDeps } from './deliver.js';
export { WebhookDispatcher, type DispatcherOptions } from './dispatcher.js';
export { requestTestEvent } from './request-test.js';
