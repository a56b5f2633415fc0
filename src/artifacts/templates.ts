import { requirementTypeLine } from './requirement-type-line.js';
import type { TemplateInput } from './types.js';

const sections = (title: string, intro: string, headings: readonly [string, string][]): string =>
  [`# ${title}`, '', intro, '', ...headings.flatMap(([heading, hint]) => [`## ${heading}`, '', hint, ''])].join('\n');

export const productTemplate = ({ title }: TemplateInput): string =>
  sections(title, '_One paragraph: what the product is and who it is for._', [
    ['Vision', '_Where the product is going and why it matters._'],
    ['Goals', '- _Measurable outcome one_\n- _Measurable outcome two_'],
    ['Target users', '_Who uses the product; see the User Types for detail._'],
    ['Non-goals', '- _What the product deliberately does not do_'],
  ]);

export const capabilityTemplate = ({ title }: TemplateInput): string =>
  sections(title, '_What this capability lets users do, in one or two sentences._', [
    ['Overview', '_The problem it solves and how it fits the product._'],
    ['Goals', '- _Outcome this capability must achieve_'],
    ['Scope', '**In scope**\n\n- _Included_\n\n**Out of scope**\n\n- _Excluded_'],
    ['Notes', '_Open questions, links, decisions._'],
  ]);

export const featureTemplate = ({ title }: TemplateInput): string =>
  sections(title, '_What the feature does, for whom, in one or two sentences._', [
    ['Overview', "_How it works from the user's point of view._"],
    ['User stories', '- As a _user type_, I want _goal_ so that _benefit_.'],
    ['Scope', '**In scope**\n\n- _Included_\n\n**Out of scope**\n\n- _Excluded_'],
    ['Notes', '_Dependencies, open questions, links._'],
  ]);

export const requirementTemplate = ({ title, requirementType = 'FUNCTIONAL' }: TemplateInput): string =>
  sections(title, requirementTypeLine(requirementType), [
    ['Statement', '_The system shall …_'],
    ['Rationale', '_Why this requirement exists._'],
    ['Notes', '_Assumptions, dependencies, open questions._'],
  ]);

export const acceptanceCriterionTemplate = ({ title }: TemplateInput): string =>
  [
    `# ${title}`,
    '',
    '**Given** _the starting context_',
    '**And** _any further context_',
    '**When** _the action the user or system takes_',
    '**Then** _the observable outcome_',
    '**And** _any further outcome_',
    '',
  ].join('\n');

export const userTypeTemplate = ({ title }: TemplateInput): string =>
  sections(title, '_Who this user is, in one sentence._', [
    ['Description', '_Role, context, how often they use the product._'],
    ['Goals', '- _What they want to achieve_'],
    ['Pain points', '- _What gets in their way today_'],
    ['Notes', '_Permissions, quotes, research links._'],
  ]);

export const coreEntityTemplate = ({ title }: TemplateInput): string =>
  sections(title, '_What this entity represents in the domain, in one sentence._', [
    ['Attributes', '| Attribute | Type | Description |\n|---|---|---|\n| _name_ | _type_ | _meaning_ |'],
    ['Relationships', '- _Related entity and how_'],
    ['Lifecycle', '_States it moves through and what moves it._'],
    ['Notes', '_Invariants, ownership, open questions._'],
  ]);

/** Pages start empty; only a given title becomes the first heading. */
export const pageTemplate = ({ title }: TemplateInput): string => (title ? `# ${title}\n` : '');
