import { optionGroupProblems, type SaveOptionGroupBody, type ServiceOptionGroup } from '@irp/proto';

/** One option as the editor holds it: the price as typed, the line items one per line. */
export interface OptionDraftValues {
  /** Kept for an existing option (orders placed with it keep their own copy either way). */
  id: string | null;
  name: string;
  price: number | string;
  lineItems: string;
  isDefault: boolean;
}

export interface OptionGroupDraftValues {
  /** Null: a new group. */
  id: string | null;
  name: string;
  options: OptionDraftValues[];
}

export const emptyOption = (isDefault: boolean): OptionDraftValues => ({
  id: null,
  name: '',
  price: '',
  lineItems: '',
  isDefault,
});

export const newGroupDraft = (): OptionGroupDraftValues => ({
  id: null,
  name: '',
  options: [emptyOption(true)],
});

/** The editor's values of a saved group. */
export function draftOf(group: ServiceOptionGroup): OptionGroupDraftValues {
  return {
    id: group.id,
    name: group.name,
    options: group.options.map((o) => ({
      id: o.id,
      name: o.name,
      price: o.price,
      lineItems: o.lineItems.join('\n'),
      isDefault: o.isDefault,
    })),
  };
}

/** A price as typed: whole dollars (NaN when it is not a number, which the rules then name). */
const priceOf = (price: number | string): number =>
  typeof price === 'number' ? price : price.trim() === '' ? Number.NaN : Number(price.replace(/[$,\s]/g, ''));

/** What the editor sends: POST /api/admin/saveServiceOptionGroup's body. */
export function saveBodyOf(draft: OptionGroupDraftValues): SaveOptionGroupBody {
  return {
    ...(draft.id ? { id: draft.id } : {}),
    name: draft.name,
    options: draft.options.map((o) => ({
      ...(o.id ? { id: o.id } : {}),
      name: o.name,
      price: priceOf(o.price),
      lineItems: o.lineItems
        .split('\n')
        .map((item) => item.trim())
        .filter(Boolean),
      isDefault: o.isDefault,
    })),
  };
}

/** The rules' messages for the draft as it would be sent (empty: it may be saved). */
export function draftProblems(draft: OptionGroupDraftValues): string[] {
  const body = saveBodyOf(draft);
  return optionGroupProblems({
    ...body,
    options: body.options.map((o) => ({
      ...o,
      lineItems: o.lineItems ?? [],
      isDefault: o.isDefault ?? false,
    })),
  });
}

/** Removes option i; when it was the default, the first left becomes the default. */
export function withoutOption(draft: OptionGroupDraftValues, i: number): OptionGroupDraftValues {
  const options = draft.options.filter((_, k) => k !== i);
  if (options.length && !options.some((o) => o.isDefault)) options[0] = { ...options[0]!, isDefault: true };
  return { ...draft, options };
}

/** Makes option i the default and no other. */
export const withDefault = (draft: OptionGroupDraftValues, i: number): OptionGroupDraftValues => ({
  ...draft,
  options: draft.options.map((o, k) => ({ ...o, isDefault: k === i })),
});
