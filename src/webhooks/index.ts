export { deliverMessage, retryPause, type DeliveryDeps } from './deliver.js';
export { WebhookDispatcher, type DispatcherOptions } from './dispatcher.js';
export { sendTestEvent } from './send-test.js';
