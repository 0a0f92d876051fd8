import {
  cleanOptionGroup,
  foreignOptionMessage,
  OPTION_GROUP_MESSAGES,
  optionGroupProblems,
  orderFormPathOf,
  SaveOptionGroupSchema,
} from '@irp/proto';
import type { ServiceOptionGroupEntity } from './service-option-group.entity';
import type { ServiceOptionEntity } from './service-option.entity';
import { foreignOptionProblems, toServiceOptionGroup } from './service-order-rules';

const option = (over: Record<string, unknown> = {}) => ({
  name: 'Standard',
  price: 1800,
  lineItems: ['Widgets', 'Emails'],
  isDefault: true,
  ...over,
});

describe('option group rules', () => {
  it('accepts a named group with one default option', () => {
    expect(
      optionGroupProblems({ name: 'Mining 2027', options: [option(), option({ isDefault: false })] }),
    ).toEqual([]);
  });

  it('lists every problem of a group, in the form order', () => {
    expect(optionGroupProblems({ name: ' ', options: [] })).toEqual([
      OPTION_GROUP_MESSAGES.nameRequired,
      OPTION_GROUP_MESSAGES.noOptions,
    ]);
    expect(
      optionGroupProblems({
        name: 'x'.repeat(121),
        options: [
          option({ name: '', price: 18.5, isDefault: false }),
          option({ price: -1, isDefault: false, lineItems: ['y'.repeat(301)] }),
        ],
      }),
    ).toEqual([
      'The group name must be at most 120 characters',
      'Option 1: Name Required',
      'Option 1: the price must be whole dollars, 0 or more',
      'Option 2: the price must be whole dollars, 0 or more',
      'Option 2: a line item must be at most 300 characters',
      'Choose the option the order form preselects (the default)',
    ]);
    expect(optionGroupProblems({ name: 'G', options: [option(), option()] })).toEqual([
      'Only one option can be the default',
    ]);
    expect(optionGroupProblems({ name: 'G', options: [option({ price: 1_000_001 })] })).toEqual([
      'Option 1: the price must be at most $1,000,000',
    ]);
    expect(
      optionGroupProblems({
        name: 'G',
        options: Array.from({ length: 9 }, (_, i) => option({ isDefault: i === 0 })),
      }),
    ).toEqual(['A group has at most 8 options']);
  });

  it('stores names trimmed and drops blank line items', () => {
    expect(
      cleanOptionGroup({
        name: ' Mining ',
        options: [option({ name: ' Gold ', lineItems: [' a ', '', '  ', 'b'] })],
      }),
    ).toEqual({ name: 'Mining', options: [option({ name: 'Gold', lineItems: ['a', 'b'] })] });
  });

  it("answers the REST body's 400 with every problem, and names the form's link", () => {
    const parsed = SaveOptionGroupSchema.safeParse({ name: '', options: [option({ isDefault: false })] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([
      OPTION_GROUP_MESSAGES.nameRequired,
      OPTION_GROUP_MESSAGES.noDefault,
    ]);
    expect(SaveOptionGroupSchema.safeParse({ name: 'G', options: [option()], extra: 1 }).success).toBe(false);
    expect(orderFormPathOf('a b')).toBe('/new-order/a%20b');
  });

  it("keeps an option's id only for the group's own options, each once", () => {
    const own = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    expect(foreignOptionProblems([{ id: own[1] }, { id: null }, {}, { id: own[0] }], own)).toEqual([]);
    expect(
      foreignOptionProblems(
        [{ id: own[0] }, { id: '33333333-3333-4333-8333-333333333333' }, { id: own[0] }],
        own,
      ),
    ).toEqual([foreignOptionMessage(2), foreignOptionMessage(3)]);
  });

  it('reads a group with its options in card order and whether it is archived', () => {
    const group: ServiceOptionGroupEntity = {
      id: 'g1',
      name: 'Mining',
      isDefault: false,
      archivedAt: new Date('2026-11-21T00:00:00Z'),
      createdAt: new Date('2026-11-20T00:00:00Z'),
      updatedAt: new Date('2026-11-21T00:00:00Z'),
    };
    const stored = (position: number, name: string): ServiceOptionEntity => ({
      id: `0000000${position}-0000-4000-8000-000000000000`,
      groupId: 'g1',
      position,
      name,
      priceCents: '250000',
      lineItems: ['x'],
      isDefault: position === 1,
    });
    expect(toServiceOptionGroup(group, [stored(2, 'B'), stored(1, 'A')])).toEqual({
      id: 'g1',
      name: 'Mining',
      isDefault: false,
      archived: true,
      options: [
        expect.objectContaining({ name: 'A', price: 2500, isDefault: true }),
        expect.objectContaining({ name: 'B', price: 2500, isDefault: false }),
      ],
      createdAt: '2026-11-20T00:00:00.000Z',
      updatedAt: '2026-11-21T00:00:00.000Z',
    });
  });
});
