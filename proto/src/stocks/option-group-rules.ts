import { formatAud } from './order-rules';

/**
 * The option group rules both ends share (docs/api/stocks.md, "Option groups"): what a group staff save
 * must hold, the messages of each problem, and the texts of a group the order form cannot show. No zod
 * here: the web app bundles it whole and shows the same messages before it sends.
 */

export const OPTION_GROUP_LIMITS = {
  name: 120,
  options: 8,
  optionName: 120,
  /** Whole AUD excluding GST (spec section 9). */
  price: 1_000_000,
  lineItems: 20,
  lineItem: 300,
} as const;

/** One option as staff give it (the order form's card; the price and line items the Invoices tab reads). */
export interface OptionDraft {
  /** Kept when an existing option is edited (orders placed with it keep their own copy either way). */
  id?: string | null;
  name: string;
  price: number;
  lineItems: readonly string[];
  isDefault: boolean;
}

export interface OptionGroupDraft {
  /** Absent or null: a new group. */
  id?: string | null;
  name: string;
  options: readonly OptionDraft[];
}

export const OPTION_GROUP_MESSAGES = {
  nameRequired: 'Group Name Required',
  nameTooLong: `The group name must be at most ${OPTION_GROUP_LIMITS.name} characters`,
  noOptions: 'Add at least one option',
  tooManyOptions: `A group has at most ${OPTION_GROUP_LIMITS.options} options`,
  noDefault: 'Choose the option the order form preselects (the default)',
  manyDefaults: 'Only one option can be the default',
} as const;

const optionMessage = (n: number, text: string) => `Option ${n}: ${text}`;

/**
 * Every problem of a group as staff would save it, in the form's order (empty: it may be saved). Names and
 * line items count trimmed; blank line items are dropped (`cleanOptionGroup`), not refused.
 */
export function optionGroupProblems(draft: OptionGroupDraft): string[] {
  const problems: string[] = [];
  const name = draft.name.trim();
  if (!name) problems.push(OPTION_GROUP_MESSAGES.nameRequired);
  else if (name.length > OPTION_GROUP_LIMITS.name) problems.push(OPTION_GROUP_MESSAGES.nameTooLong);
  if (!draft.options.length) problems.push(OPTION_GROUP_MESSAGES.noOptions);
  if (draft.options.length > OPTION_GROUP_LIMITS.options) problems.push(OPTION_GROUP_MESSAGES.tooManyOptions);
  draft.options.forEach((option, i) => {
    const n = i + 1;
    const optionName = option.name.trim();
    if (!optionName) problems.push(optionMessage(n, 'Name Required'));
    else if (optionName.length > OPTION_GROUP_LIMITS.optionName)
      problems.push(
        optionMessage(n, `the name must be at most ${OPTION_GROUP_LIMITS.optionName} characters`),
      );
    if (!Number.isInteger(option.price) || option.price < 0)
      problems.push(optionMessage(n, 'the price must be whole dollars, 0 or more'));
    else if (option.price > OPTION_GROUP_LIMITS.price)
      problems.push(optionMessage(n, `the price must be at most ${formatAud(OPTION_GROUP_LIMITS.price)}`));
    const items = option.lineItems.map((item) => item.trim()).filter(Boolean);
    if (items.length > OPTION_GROUP_LIMITS.lineItems)
      problems.push(optionMessage(n, `at most ${OPTION_GROUP_LIMITS.lineItems} line items`));
    if (items.some((item) => item.length > OPTION_GROUP_LIMITS.lineItem))
      problems.push(
        optionMessage(n, `a line item must be at most ${OPTION_GROUP_LIMITS.lineItem} characters`),
      );
  });
  const defaults = draft.options.filter((o) => o.isDefault).length;
  if (draft.options.length && defaults === 0) problems.push(OPTION_GROUP_MESSAGES.noDefault);
  if (defaults > 1) problems.push(OPTION_GROUP_MESSAGES.manyDefaults);
  return problems;
}

/** The group as it is stored: names trimmed, blank line items dropped. */
export function cleanOptionGroup<D extends OptionGroupDraft>(draft: D): D {
  return {
    ...draft,
    name: draft.name.trim(),
    options: draft.options.map((o) => ({
      ...o,
      name: o.name.trim(),
      lineItems: o.lineItems.map((item) => item.trim()).filter(Boolean),
    })),
  };
}

/** The public order form of a group (spec section 2's /new-order/{id}). */
export const orderFormPathOf = (groupId: string): string => `/new-order/${encodeURIComponent(groupId)}`;

/** /new-order/{id} of an archived group. */
export const OPTION_GROUP_ARCHIVED_MESSAGE =
  'This order form is no longer offered: ask us for the link to our current order form';
/** /new-order with no group marked the default. */
export const NO_DEFAULT_OPTION_GROUP_MESSAGE =
  'No order form is offered at the moment: ask us for the link to your order form';
export const optionGroupNotFoundMessage = (id: string) => `Option group ${id} not found`;
export const duplicateOptionGroupNameMessage = (name: string) =>
  `An option group named '${name}' already exists: choose another name`;
export const ARCHIVED_OPTION_GROUP_EDIT_MESSAGE =
  'This option group is archived: restore it before editing it or making it the default';
export const DEFAULT_OPTION_GROUP_ARCHIVE_MESSAGE =
  'This is the default option group (what /new-order shows): make another group the default before archiving it';
export const foreignOptionMessage = (n: number) => `Option ${n} is not one of this group's options`;
