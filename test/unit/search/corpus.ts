import type { ArtifactType } from '../../../src/artifacts/index.js';
import type { IndexedDocument } from '../../../src/search/index.js';

export const SHARED = 'ws-shared';
export const INTERNAL = 'ws-internal';
/** When every corpus document last changed: equal scores then go by id. */
export const UPDATED_AT = '2026-01-01T00:00:00.000Z';

const doc = (id: string, type: ArtifactType, title: string, body: string, workspaceId = SHARED): IndexedDocument => ({
  id,
  type,
  workspaceId,
  title,
  body: `# ${title}\n\n${body.trim()}\n`,
  updatedAt: UPDATED_AT,
});

/** A small shop's product documentation, as an organization would write it. */
export const CORPUS: readonly IndexedDocument[] = [
  doc(
    'cap-checkout',
    'capability',
    'Checkout',
    `
Lets shoppers turn a cart into a paid order: order review, delivery address and payment in one flow.

## Overview

The flow must stay short on mobile. See [Guest checkout](https://example.test/guest) for buyers without an account.`,
  ),
  doc(
    'cap-payments',
    'capability',
    'Payments',
    `
Card payments, digital wallets and bank transfers, with refunds back to the original method.

## Scope

**In scope**

- Card payments with 3-D Secure
- Apple Pay and Google Pay wallets`,
  ),
  doc(
    'cap-onboarding',
    'capability',
    'Onboarding',
    `
Helps a new shopper create an account and finish a first order. Includes the welcome tour and profile setup.`,
  ),
  doc(
    'cap-notifications',
    'capability',
    'Notifications',
    `
Email, push and SMS messages about orders, deliveries and account security. Shoppers manage their preferences in one place.`,
  ),
  doc(
    'cap-catalog',
    'capability',
    'Product catalog',
    `
Browsing, categories, filters and product detail pages. Prices always include tax.`,
  ),
  doc(
    'cap-accounts',
    'capability',
    'Accounts and profiles',
    `
Sign-up, sign-in, password reset and the profile page with saved addresses and saved cards.`,
  ),
  doc(
    'feat-guest-checkout',
    'feature',
    'Guest checkout',
    `
Buy without creating an account. The shopper enters a delivery address and pays by card.

## User stories

- As a _shopper_, I want to buy quickly so that I do not have to sign up first.`,
  ),
  doc(
    'feat-express-checkout',
    'feature',
    'Express checkout with saved cards',
    `
One-tap purchase for signed-in shoppers using a saved card and their default address.`,
  ),
  doc(
    'feat-refunds',
    'feature',
    'Refunds',
    `
Partial and full refunds to the original payment method, started by a support agent.`,
  ),
  doc(
    'feat-push',
    'feature',
    'Push notifications',
    `
Mobile push messages when an order ships or is delivered. Opt-in on first launch.`,
  ),
  doc(
    'feat-email-digest',
    'feature',
    'Weekly email digest',
    `
A Monday summary of price drops on saved products. Sent only to shoppers who asked for it.`,
  ),
  doc(
    'feat-welcome-tour',
    'feature',
    'Welcome tour',
    `
A guided tour of search, the cart and order history, shown once after sign-up.`,
  ),
  doc(
    'feat-wallets',
    'feature',
    'Digital wallets',
    `
Pay with Apple Pay or Google Pay on the last step, without typing card details.`,
  ),
  doc(
    'feat-order-tracking',
    'feature',
    'Order tracking',
    `
Live delivery status from the carrier, with the expected delivery day.`,
  ),
  doc(
    'feat-address-book',
    'feature',
    'Address book',
    `
Shoppers keep several delivery addresses and pick one per order.`,
  ),
  doc(
    'req-3ds',
    'requirement',
    'Card payments require 3-D Secure authentication',
    `
**Requirement type:** NON_FUNCTIONAL (qualities)

## Statement

The system shall send every card payment in the European Economic Area through 3-D Secure.`,
  ),
  doc(
    'req-checkout-latency',
    'requirement',
    'Checkout page loads within two seconds',
    `
**Requirement type:** NON_FUNCTIONAL (qualities)

## Statement

The order review page shall render within two seconds on a mid-range phone over 4G.`,
  ),
  doc(
    'req-refund-window',
    'requirement',
    'Refunds allowed within 30 days',
    `
**Requirement type:** BUSINESS_RULE (policies)

A refund may be requested up to 30 days after delivery.`,
  ),
  doc(
    'req-notification-optout',
    'requirement',
    'Shoppers can opt out of marketing notifications',
    `
**Requirement type:** FUNCTIONAL (behaviors)

Every marketing message carries a one-click unsubscribe link.`,
  ),
  doc(
    'req-password-strength',
    'requirement',
    'Password strength rules',
    `
Passwords have at least twelve characters and are checked against known breached passwords.`,
  ),
  doc(
    'req-guest-email',
    'requirement',
    'Guest checkout asks for an email address',
    `
**Requirement type:** FUNCTIONAL (behaviors)

The order confirmation and receipts go to this address.`,
  ),
  doc(
    'ac-guest-confirmation',
    'acceptance_criterion',
    'Guest receives order confirmation email',
    `
**Given** a guest who placed an order
**When** the order is confirmed
**Then** an order confirmation email arrives within one minute`,
  ),
  doc(
    'ac-declined-card',
    'acceptance_criterion',
    'Declined card shows a clear error',
    `
**Given** a shopper on the last step
**When** the bank declines the card
**Then** the page explains what happened and keeps the cart`,
  ),
  doc(
    'ut-shopper',
    'user_type',
    'Shopper',
    `
Someone buying for themselves, mostly on a phone, often in a hurry.`,
  ),
  doc(
    'ut-support-agent',
    'user_type',
    'Support agent',
    `
Handles refunds, delivery problems and account lockouts from the back office.`,
  ),
  doc(
    'ce-order',
    'core_entity',
    'Order',
    `
| Attribute | Type | Description |
|---|---|---|
| status | enum | placed, paid, shipped, delivered |
| total | money | including tax and delivery |`,
  ),
  doc(
    'ce-payment-intent',
    'core_entity',
    'Payment intent',
    `
One attempt to collect money for an order; it moves from created to succeeded or failed.`,
  ),
  doc(
    'page-checkout-redesign',
    'page',
    'Checkout redesign notes',
    `
Internal notes from the checkout redesign workshop: fewer fields, address autocomplete, wallets first.`,
    INTERNAL,
  ),
  doc(
    'page-incident-payments',
    'page',
    'Incident review: payment outage in March',
    `
For 40 minutes card payments failed because the provider rotated a certificate.`,
    INTERNAL,
  ),
  doc(
    'page-glossary',
    'page',
    'Glossary',
    `
- **Checkout**: the steps from cart to paid order.
- **Payment intent**: one attempt to collect money.
- **Wallet**: Apple Pay, Google Pay and similar.`,
  ),
  doc(
    'page-localization',
    'page',
    'Localization',
    `
Supported languages: English, Français and Español. Dates follow the shopper's locale; the résumé of each release lists new translations.`,
  ),
];

export const byId = (id: string): IndexedDocument => {
  const found = CORPUS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no corpus document ${id}`);
  return found;
};
