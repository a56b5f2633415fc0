import { requirementTypeLine, type ArtifactType, type RequirementType } from '../artifacts/index.js';

export interface SampleArtifact {
  readonly type: Exclude<ArtifactType, 'product' | 'page'>;
  readonly title: string;
  readonly body: string;
  readonly requirementType?: RequirementType;
  readonly children?: readonly SampleArtifact[];
}
export interface SamplePage {
  readonly title: string;
  readonly body: string;
}
export interface SampleFolder {
  readonly name: string;
  /** 'default' or 'restricted' */
  readonly workspace: 'default' | 'restricted';
  readonly pages: readonly SamplePage[];
}

export const DEMO_ORG_NAME = 'Acme Groceries';

/** Bodies are written indented like the code around them; this removes that indentation. */
const dedent = (text: string): string => {
  const lines = text.replace(/^\n/, '').trimEnd().split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length));
  return lines.map((line) => line.slice(indent)).join('\n');
};

/** The heading is made from the title so that the two cannot drift apart. */
const markdown = (title: string, ...blocks: string[]): string => `${[`# ${title}`, ...blocks].join('\n\n')}\n`;

const node =
  (type: SampleArtifact['type']) =>
  (title: string, text: string, children?: readonly SampleArtifact[]): SampleArtifact => ({
    type,
    title,
    body: markdown(title, dedent(text)),
    ...(children ? { children } : {}),
  });

const capability = node('capability');
const feature = node('feature');
const userType = node('user_type');
const coreEntity = node('core_entity');
const criterion = (title: string, text: string): SampleArtifact => node('acceptance_criterion')(title, text);

/** Opens with the same type line as the requirement template, so sample and created requirements read alike. */
const requirement = (
  requirementType: RequirementType,
  title: string,
  text: string,
  criteria?: readonly SampleArtifact[],
): SampleArtifact => ({
  type: 'requirement',
  title,
  requirementType,
  body: markdown(title, requirementTypeLine(requirementType), dedent(text)),
  ...(criteria ? { children: criteria } : {}),
});

const page = (title: string, text: string): SamplePage => ({ title, body: markdown(title, dedent(text)) });

const catalog = capability(
  'Catalog and Search',
  `
  Shoppers find the groceries they want among the 18,000 items each store stocks.

  ## Overview

  The catalog mirrors each store's inventory every 10 minutes from the store systems (POS feed).
  Search and browse only show items the shopper's chosen store can actually pick today.

  ## Goals

  - 85% of searches end with an item added to the basket.
  - Out-of-stock items shown to shoppers: under 2% of search results.

  ## Scope

  **In scope:** search, aisle browsing, item pages, substitution preferences.

  **Out of scope:** recipes and meal plans (planned for 2026), third-party marketplace sellers.
`,
  [
    feature(
      'Product Search',
      `
    A single search box that finds items by name, brand or category, tolerant of typos.

    ## Overview

    Results are ranked by relevance, then by the shopper's purchase history. Items that are out of
    stock at the selected store are hidden, not greyed out.

    ## User stories

    - As a Household Shopper, I want "oat mlik" to find oat milk so that typos do not cost me time.
    - As a Household Shopper, I want my usual brand first so that reordering takes one tap.

    ## Notes

    Search runs on the store-scoped index; a shopper switching store gets a fresh index within 1 second.
  `,
      [
        requirement(
          'FUNCTIONAL',
          'Typo-tolerant matching',
          `
      ## Statement

      The system shall match a query term to an item when the term is within a Damerau-Levenshtein
      distance of 1 (terms of 4-7 characters) or 2 (terms of 8+ characters) of a word in the item's
      name or brand. Swapping two adjacent letters counts as one edit.

      ## Rationale

      22% of zero-result searches in the 2024 logs were single-letter typos on mobile keyboards.
    `,
          [
            criterion(
              'One-letter typo still finds the item',
              `
        **Given** the Riverside store stocks "Oatly Oat Milk 1L"
        **When** a shopper at Riverside searches for "oat mlik"
        **Then** "Oatly Oat Milk 1L" appears in the first 5 results
      `,
            ),
            criterion(
              'Short terms are matched exactly',
              `
        **Given** the store stocks "Figs, dried, 200g" and no item whose name contains "gig"
        **When** a shopper searches for "gig"
        **Then** no fig products are returned, because terms under 4 characters must match exactly
        **And** the shopper sees "No results for gig"
      `,
            ),
          ],
        ),
        requirement(
          'NON_FUNCTIONAL',
          'Search response time',
          `
      ## Statement

      Search results shall be returned within 300 ms at the 95th percentile and 800 ms at the 99th,
      measured at the API gateway, at a load of 400 searches per second per region.

      ## Rationale

      Saturday 09:00-11:00 is the weekly peak; slower search there measurably lowers basket size.
    `,
        ),
      ],
    ),
    feature(
      'Substitution Preferences',
      `
    Shoppers say, per item, what a picker may do when that item is out of stock at picking time.

    ## Overview

    Each basket line has one of three choices: "best match" (default), "specific item" or "no
    substitute". The picker app shows the choice next to the item.

    ## User stories

    - As a Household Shopper, I want to forbid substitutes for baby formula so that I never get the wrong one.
    - As a Store Picker, I want to see the shopper's choice while picking so that I do not have to guess.

    ## Scope

    **Out of scope:** substitution choices per category (one choice per basket line only).
  `,
      [
        requirement(
          'BUSINESS_RULE',
          'Substitute price cap',
          `
      ## Statement

      A substitute shall be charged at the lower of its own price and the original item's price.
      A picker may not choose a substitute priced more than 20% above the original item.

      ## Rationale

      Shoppers must never pay more for an item they did not choose (customer promise, 2023).
    `,
          [
            criterion(
              'Dearer substitute is charged at the original price',
              `
        **Given** a basket line "Heinz Beans 415g" at $1.50 with "best match" allowed
        **And** the item is out of stock at picking time
        **When** the picker substitutes "Branston Beans 410g" priced $1.65
        **Then** the shopper's receipt shows the substitute charged at $1.50
      `,
            ),
          ],
        ),
        requirement(
          'CONSTRAINT',
          'No substitutes for restricted categories',
          `
      ## Statement

      Items in the categories Infant Formula, Medicines and Allergen-Free shall always be "no
      substitute"; the shopper cannot change this and the picker app does not offer substitutes.

      ## Rationale

      Food-safety guidance from the Acme Groceries compliance team (policy FS-12).
    `,
        ),
      ],
    ),
  ],
);

const checkout = capability(
  'Checkout and Payments',
  `
  Shoppers turn a basket into a confirmed order with a delivery slot and an authorized payment.

  ## Overview

  Checkout is three steps: choose a slot, apply offers, pay. An order is confirmed only once the
  payment is authorized; the final charge happens after picking, when weighted items are known.

  ## Goals

  - Checkout completion of 92% or more of baskets that reach the slot step.
  - Payment failures under 1.5% of attempts.

  ## Scope

  **In scope:** delivery slots, promo codes, card and wallet payments.

  **Out of scope:** cash on delivery, gift cards (phase 2).
`,
  [
    feature(
      'Delivery Slot Booking',
      `
    Shoppers pick a 1-hour delivery window up to 7 days ahead.

    ## Overview

    Slots are shown per store and postcode zone. A chosen slot is held while the shopper checks
    out, so two shoppers cannot both take the last place.

    ## User stories

    - As a Household Shopper, I want to see which slots are nearly full so that I can book early.
    - As a Delivery Driver, I want a realistic number of drops per hour so that I arrive on time.
  `,
      [
        requirement(
          'FUNCTIONAL',
          'Slot hold during checkout',
          `
      ## Statement

      The system shall hold a chosen slot for the shopper for 15 minutes. If payment is not
      authorized within the hold, the slot is released and the shopper must choose again.

      ## Notes

      Holds count against slot capacity; at most one hold per shopper at a time.
    `,
          [
            criterion(
              'Expired hold releases the slot',
              `
        **Given** a shopper holds the Saturday 10:00-11:00 slot, which has one place left
        **When** 15 minutes pass without a payment authorization
        **Then** the slot shows one place left to other shoppers
        **And** the first shopper sees "Your slot expired, please choose again" at payment
      `,
            ),
            criterion(
              'Second hold replaces the first',
              `
        **Given** a shopper holds the Friday 18:00-19:00 slot
        **When** the same shopper chooses the Friday 19:00-20:00 slot
        **Then** the 18:00-19:00 hold is released immediately
        **And** only the 19:00-20:00 slot counts against capacity for that shopper
      `,
            ),
          ],
        ),
        requirement(
          'BUSINESS_RULE',
          'Slot capacity per van',
          `
      ## Statement

      Each van serves at most 12 orders per 1-hour slot, and at most 8 when any order in the slot
      contains more than 40 items. Slot capacity is the number of vans rostered times this limit.

      ## Rationale

      Route trials in Q3 2024 showed on-time delivery falling below 90% above 12 drops per hour.
    `,
        ),
        requirement(
          'CONSTRAINT',
          'Slots within store hours',
          `
      ## Statement

      Delivery slots shall start no earlier than 07:00 and end no later than 22:00 local time,
      and no slot may be offered less than 3 hours after the current time.

      ## Rationale

      Picking needs at least 2 hours; drivers' contracts end at 22:30.
    `,
        ),
      ],
    ),
    feature(
      'Payment Authorization',
      `
    The order total is authorized on the shopper's card or wallet at checkout and captured after picking.

    ## Overview

    Payments go through Stripe. Weighted items (meat, fruit by the kilo) mean the final total is
    only known after picking, so the authorized amount includes a margin.

    ## User stories

    - As a Household Shopper, I want to pay with Apple Pay or Google Pay so that I do not type my card.
    - As a Household Shopper, I want to be charged only for what was delivered.

    ## Notes

    Depends on the Stripe PaymentIntents API with manual capture (capture window: 7 days).
  `,
      [
        requirement(
          'BUSINESS_RULE',
          'Authorization margin for weighted items',
          `
      ## Statement

      The authorized amount shall be the basket total plus 15% of the value of weighted items,
      capped at $30. The captured amount may never exceed the authorized amount.

      ## Notes

      If picked weights would exceed the authorization, the picker app warns before the last item.
    `,
          [
            criterion(
              'Margin applies to weighted items only',
              `
        **Given** a basket of $60.00 in packaged goods and $40.00 in weighted items
        **When** the shopper confirms payment
        **Then** Stripe receives an authorization request for $106.00
      `,
            ),
          ],
        ),
        requirement(
          'CONSTRAINT',
          'No card data stored',
          `
      ## Statement

      FreshCart systems shall never receive, log or store card numbers or CVCs; only Stripe
      payment-method tokens and the last 4 digits may be stored.

      ## Rationale

      Keeps FreshCart within PCI DSS SAQ A scope.
    `,
        ),
        requirement(
          'NON_FUNCTIONAL',
          'Payment service availability',
          `
      ## Statement

      The payment service shall be available 99.95% of each calendar month. When Stripe is
      unavailable for more than 2 minutes, checkout shows a maintenance notice and keeps slot holds.

      ## Notes

      See the page "Release checklist" for the payment smoke test run before every deploy.
    `,
        ),
      ],
    ),
    feature(
      'Promo Codes',
      `
    Shoppers enter a code at checkout for a discount or free delivery.

    ## Overview

    Codes are created by the marketing team in the admin console with a value, a minimum basket,
    a validity window and a usage limit.

    ## User stories

    - As a Household Shopper, I want to see why a code was refused so that I can fix my basket.

    ## Scope

    **Out of scope:** automatic offers without a code (handled by the pricing engine).
  `,
      [
        requirement(
          'BUSINESS_RULE',
          'One code per order',
          `
      ## Statement

      An order may carry at most one promo code. A discount code may not reduce the basket below
      the $35 minimum order value; delivery fees are never discounted by a percentage code.
    `,
          [
            criterion(
              'Second code replaces the first',
              `
        **Given** an order with code SPRING10 applied
        **When** the shopper enters code FREEDEL
        **Then** SPRING10 is removed and FREEDEL is applied
        **And** the shopper sees "Only one code per order: SPRING10 was removed"
      `,
            ),
            criterion(
              'Code refused below the minimum basket',
              `
        **Given** a basket of $38.00 and code SAVE5 worth $5.00
        **When** the shopper applies SAVE5
        **Then** the code is refused with "Your basket must stay above $35 after discounts"
      `,
            ),
          ],
        ),
        requirement(
          'FUNCTIONAL',
          'Code validation at checkout',
          `
      ## Statement

      The system shall check a code's validity window, usage limit and minimum basket when it is
      applied and again when payment is authorized, and name the failing condition to the shopper.
    `,
        ),
      ],
    ),
  ],
);

const fulfilment = capability(
  'Fulfilment and Delivery',
  `
  Orders are picked in store by staff and delivered by FreshCart drivers in the booked slot.

  ## Overview

  Picking starts 2 hours before the slot. Pickers use the FreshCart Picker app on handheld
  scanners; drivers use the FreshCart Driver app on company phones.

  ## Goals

  - 95% of orders delivered inside the booked slot.
  - Picking accuracy (right item, right quantity) of 99.5% or better.

  ## Scope

  **Out of scope:** click-and-collect lockers, third-party couriers.
`,
  [
    feature(
      'Picking App',
      `
    Store pickers collect several orders in one walk of the store, guided by aisle order.

    ## Overview

    The app batches up to 6 orders per trolley, sorts the pick list by aisle, and checks each
    item by barcode scan before it goes into the order's tote.

    ## User stories

    - As a Store Picker, I want the list in aisle order so that I walk the store once.
    - As a Store Picker, I want a warning when I scan the wrong item so that mistakes stop at the shelf.
  `,
      [
        requirement(
          'FUNCTIONAL',
          'Barcode check on every item',
          `
      ## Statement

      The picker app shall accept an item into a tote only after its barcode matches the basket
      line or an allowed substitute. Weighted items also record the weight from the label barcode.
    `,
          [
            criterion(
              'Wrong item is rejected at scan',
              `
        **Given** the pick list line "Semi-skimmed Milk 2L" for order FC-10482
        **When** the picker scans "Whole Milk 2L"
        **Then** the app vibrates and shows "Wrong item: expected Semi-skimmed Milk 2L"
        **And** the line stays open
      `,
            ),
          ],
        ),
        requirement(
          'NON_FUNCTIONAL',
          'Offline picking',
          `
      ## Statement

      The picker app shall keep working without network for at least 30 minutes, queueing scans
      locally and syncing them within 10 seconds of reconnecting, without duplicates.

      ## Rationale

      Wi-Fi coverage in the freezer aisles of 9 of our 41 stores is unreliable.
    `,
        ),
      ],
    ),
    feature(
      'Live Order Tracking',
      `
    Shoppers follow their delivery on a map from the moment the van leaves the store.

    ## Overview

    The driver app reports its position; the shopper app shows the van, the number of stops
    before theirs and an estimated arrival time.

    ## User stories

    - As a Household Shopper, I want an arrival estimate so that I know when to be home.
    - As a Delivery Driver, I want the shopper told automatically when I am running late.
  `,
      [
        requirement(
          'FUNCTIONAL',
          'Late delivery notification',
          `
      ## Statement

      When the estimated arrival moves past the end of the booked slot, the system shall notify
      the shopper by push notification (or SMS if push is off) with the new estimate, once per order.
    `,
          [
            criterion(
              'Shopper is told once about a late van',
              `
        **Given** order FC-20931 booked for 14:00-15:00
        **When** the estimate changes to 15:10 and later to 15:20
        **Then** the shopper receives one notification, "Running late: now arriving around 15:10"
        **And** the tracking screen shows 15:20 after the second change
      `,
            ),
          ],
        ),
        requirement(
          'CONSTRAINT',
          'Location data retention',
          `
      ## Statement

      Van positions shall be collected only while a route is active, at most every 30 seconds, and
      deleted 30 days after delivery. Shoppers never see a van's position after their own drop.

      ## Rationale

      Drivers' works council agreement (2024) and GDPR data minimisation.
    `,
        ),
      ],
    ),
  ],
);

const userTypes = [
  userType(
    'Household Shopper',
    `
    A person who orders the weekly groceries for a household of 2-5 people.

    ## Description

    Orders once a week, usually on a phone, on Thursday evening or Saturday morning. Basket of
    about 45 items and $110. 60% reorder from a previous order.

    ## Goals

    - Finish the weekly shop in under 10 minutes.
    - Get exactly what was ordered, or a substitute they agreed to.

    ## Pain points

    - Popular weekend slots are full by Wednesday.
    - Surprise substitutions, especially for dietary needs.
  `,
  ),
  userType(
    'Store Picker',
    `
    A store employee who picks online orders from the shelves during a shift.

    ## Description

    Works 6-hour shifts, picks about 120 items an hour on a handheld scanner, often while the
    store is open to walk-in customers.

    ## Goals

    - Pick accurately without walking the same aisle twice.

    ## Notes

    Pickers see order contents and substitution choices but never the shopper's address or payment details.
  `,
  ),
  userType(
    'Delivery Driver',
    `
    A FreshCart employee who loads totes into a van and delivers them on a route of up to 12 drops an hour.

    ## Description

    Uses the Driver app on a company phone mounted in the van; works split shifts from 07:00 to 22:30.

    ## Goals

    - Arrive inside the slot and hand over in under 3 minutes per drop.

    ## Pain points

    - Missing flat numbers and gate codes in addresses.
    - Chilled totes left waiting when a shopper is not home (policy: wait 5 minutes, then return).
  `,
  ),
];

const coreEntities = [
  coreEntity(
    'Order',
    `
    A shopper's confirmed purchase for one delivery slot from one store.

    ## Attributes

    | Attribute | Type | Description |
    |---|---|---|
    | orderNumber | string | Human-readable id, e.g. FC-10482 |
    | lines | list of OrderLine | Item, quantity, substitution choice, picked weight |
    | slotId | DeliverySlot id | The booked delivery window |
    | authorizedAmount | money | Amount authorized at checkout, margin included |
    | capturedAmount | money | Amount charged after picking; never above authorizedAmount |

    ## Relationships

    - Belongs to one Household Shopper and one Delivery Slot.
    - Each line refers to one Catalog Item (and optionally a substitute Catalog Item).

    ## Lifecycle

    Placed -> Picking -> Picked -> Out for delivery -> Delivered. Placed orders may be Cancelled by
    the shopper until picking starts; Delivered orders may become Partially refunded.
  `,
  ),
  coreEntity(
    'Delivery Slot',
    `
    A 1-hour delivery window for one store and postcode zone, with a limited number of places.

    ## Attributes

    | Attribute | Type | Description |
    |---|---|---|
    | storeId | string | The store that picks and dispatches |
    | zone | string | Postcode zone, e.g. RVS-3 |
    | startsAt | datetime | Start of the window, local time |
    | capacity | integer | Vans rostered times 12 (or 8 for large orders) |
    | held | integer | Places held by shoppers in checkout (15-minute holds) |

    ## Relationships

    - Has many Orders; at most capacity minus held orders can be placed.

    ## Lifecycle

    Open -> Full (capacity reached) -> Closed (3 hours before start) -> Completed.
  `,
  ),
  coreEntity(
    'Catalog Item',
    `
    A product as sold in one store: its name, price and stock at that store.

    ## Attributes

    | Attribute | Type | Description |
    |---|---|---|
    | sku | string | Acme Groceries stock-keeping unit, shared by all stores |
    | name | string | Display name including pack size, e.g. "Oatly Oat Milk 1L" |
    | price | money | Price per unit, or per kg for weighted items |
    | weighted | boolean | True when the final price depends on the picked weight |
    | category | string | e.g. Dairy, Infant Formula (restricted categories allow no substitutes) |

    ## Relationships

    - Appears on many Order lines, as ordered item or as substitute.

    ## Lifecycle

    Listed -> In stock / Out of stock (updated every 10 minutes from the POS feed) -> Delisted.
  `,
  ),
];

export const DEMO_PRODUCT: {
  readonly title: string;
  readonly body: string;
  readonly children: readonly SampleArtifact[];
} = {
  title: 'FreshCart',
  body: markdown(
    'FreshCart',
    dedent(`
    FreshCart is Acme Groceries' app for ordering groceries online from 41 stores for same-day or
    next-day delivery in a 1-hour slot.

    ## Vision

    The weekly shop done in 10 minutes, delivered when promised, with nothing the shopper did not agree to.

    ## Goals

    - 250,000 weekly orders by the end of 2026 (118,000 today).
    - 95% of orders delivered inside the booked slot.
    - Fewer than 1 unwanted substitution per 100 orders.

    ## Target users

    Household Shoppers place orders; Store Pickers and Delivery Drivers fulfil them (see User Types).

    ## Non-goals

    - Rapid delivery in under 30 minutes.
    - Selling products that Acme Groceries stores do not stock.
  `),
  ),
  children: [catalog, checkout, fulfilment, ...userTypes, ...coreEntities],
};

export const DEMO_ROOT_PAGES: readonly SamplePage[] = [
  page(
    'Glossary',
    `
    Terms used across the FreshCart specifications.

    - **Basket**: the items a shopper has chosen before checkout; it becomes an Order once payment is authorized.
    - **Slot**: a 1-hour delivery window for one store and postcode zone.
    - **Hold**: a 15-minute reservation of a slot place during checkout.
    - **Tote**: a plastic crate holding part of one order; chilled and frozen totes are colour-coded.
    - **Weighted item**: an item sold by weight, whose final price is known only after picking.
    - **Substitute**: an item picked in place of an out-of-stock one, never charged above the original.
    - **Drop**: one delivery stop on a driver's route.
    - **Capture**: charging the authorized payment after picking.
  `,
  ),
  page(
    'How we write requirements',
    `
    - One testable statement per requirement, starting "The system shall".
    - Pick the type: FUNCTIONAL (behaviors), NON_FUNCTIONAL (qualities), CONSTRAINT (limits),
      BUSINESS_RULE (policies).
    - Put numbers in the statement (300 ms, 15 minutes, $35), not "fast" or "soon".
    - Add at least one Given/When/Then acceptance criterion before a requirement is planned into a sprint.
    - Link a policy or measurement in the Rationale whenever a number comes from one.
  `,
  ),
];

export const DEMO_FOLDERS: readonly SampleFolder[] = [
  {
    name: 'Engineering notes',
    workspace: 'default',
    pages: [
      page(
        'API conventions',
        `
        Rules for the FreshCart public and internal HTTP APIs.

        - Paths are plural nouns in kebab-case: /v2/delivery-slots/{slotId}/holds.
        - Money is an object { amount: integer minor units, currency: "USD" }; never floats.
        - Times are ISO 8601 with offset; slot times are also given in the store's local time.
        - Every write accepts an Idempotency-Key header; keys are kept for 24 hours.
        - Errors use RFC 9457 problem details with a stable type, e.g. /problems/slot-full.
        - Lists use cursor pagination (limit 1-100, default 25); no offset pagination.
        - Breaking changes need a new major version and 6 months of overlap.
      `,
      ),
      page(
        'Release checklist',
        `
        Every production deploy of the FreshCart backend, in order.

        1. Deploys happen Monday to Thursday, 10:00-15:00; never on Fridays or before public holidays.
        2. Database migrations are backwards compatible with the previous release.
        3. Run the payment smoke test: authorize and void $1.00 on the Stripe test card.
        4. Canary to the Riverside store for 30 minutes; watch checkout errors and search p95.
        5. Roll back if checkout errors exceed 2% or search p95 exceeds 300 ms.
        6. Post the release notes in #freshcart-releases with the ticket list.
      `,
      ),
      page(
        'Incident runbook: payment provider outage',
        `
        When Stripe errors exceed 20% of authorizations for 2 minutes, the on-call engineer:

        1. Confirms on the Stripe status page and opens an incident in #incidents.
        2. Switches on the checkout maintenance notice (feature flag checkout.maintenance).
        3. Extends all active slot holds by 30 minutes so shoppers do not lose their slot.
        4. Pauses capture jobs; authorizations stay valid for 7 days.
        5. After recovery, turns the flag off and replays queued captures oldest first.
      `,
      ),
    ],
  },
  {
    name: 'Leadership',
    workspace: 'restricted',
    pages: [
      page(
        'Pricing strategy 2026',
        `
        Confidential: leadership team only.

        ## Proposal

        - Raise the standard delivery fee from $4.99 to $5.99 on 1 March 2026.
        - Launch FreshCart Plus at $9.99 a month: free delivery on orders over $50, priority slots.
        - Keep the $35 minimum order; drop the $3 small-basket fee.

        ## Why

        Delivery costs $8.20 per order today; fees cover 61% of it. The change brings this to 73%
        with an expected order volume loss under 3% (Q4 price test in 4 stores).

        ## Risks

        - Competitor QuickBasket offers free delivery over $40; watch churn weekly for 8 weeks.
      `,
      ),
    ],
  },
];
