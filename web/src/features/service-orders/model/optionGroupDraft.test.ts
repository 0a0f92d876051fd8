import type { ServiceOptionGroup } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import {
  draftOf,
  draftProblems,
  emptyOption,
  newGroupDraft,
  saveBodyOf,
  withDefault,
  withoutOption,
} from './optionGroupDraft';

const GROUP: ServiceOptionGroup = {
  id: 'g1',
  name: 'Mining 2027',
  isDefault: false,
  archived: false,
  options: [
    {
      id: '11111111-1111-4111-8111-111111111111',
      groupId: 'g1',
      name: 'Essentials',
      price: 1200,
      lineItems: ['Widgets', 'Emails'],
      isDefault: true,
    },
  ],
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
};

describe('option group draft', () => {
  it('round-trips a saved group: the line items one per line, the option ids kept', () => {
    const draft = draftOf(GROUP);
    expect(draft.options[0]?.lineItems).toBe('Widgets\nEmails');
    expect(saveBodyOf(draft)).toEqual({
      id: 'g1',
      name: 'Mining 2027',
      options: [
        {
          id: '11111111-1111-4111-8111-111111111111',
          name: 'Essentials',
          price: 1200,
          lineItems: ['Widgets', 'Emails'],
          isDefault: true,
        },
      ],
    });
  });

  it('sends a new group without ids, prices as numbers and no blank line items', () => {
    const draft = { ...newGroupDraft(), name: 'New' };
    draft.options = [{ ...emptyOption(true), name: 'A', price: '$2,400', lineItems: ' one \n\n two' }];
    expect(saveBodyOf(draft)).toEqual({
      name: 'New',
      options: [{ name: 'A', price: 2400, lineItems: ['one', 'two'], isDefault: true }],
    });
  });

  it("names each problem with proto's messages", () => {
    expect(draftProblems(newGroupDraft())).toEqual([
      'Group Name Required',
      'Option 1: Name Required',
      'Option 1: the price must be whole dollars, 0 or more',
    ]);
  });

  it('keeps one default when options are removed or the default moves', () => {
    const draft = {
      ...newGroupDraft(),
      options: [emptyOption(true), emptyOption(false), emptyOption(false)],
    };
    expect(withDefault(draft, 2).options.map((o) => o.isDefault)).toEqual([false, false, true]);
    expect(withoutOption(draft, 0).options.map((o) => o.isDefault)).toEqual([true, false]);
  });
});
