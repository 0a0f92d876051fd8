import { GlobalRole, RestrictedFields, RoleHolder, StockRole } from '@irp/proto';
import { stripRestricted } from './restricted-fields';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const user = (roles: string[], stockRoles: Record<string, string[]> = {}): RoleHolder => ({
  roles,
  stockRoles,
});

/** Config fields need ViewConfig on the object's stock, invoice fields Invoicing (as the client stock routes). */
const stockFields = (at: string, stockIdField?: string): RestrictedFields => ({
  at,
  ...(stockIdField ? { stockIdField } : {}),
  rules: [
    { fields: ['apiKey', 'feedUrl'], stockRoles: [StockRole.ViewConfig] },
    { fields: ['invoiceTotal'], stockRoles: [StockRole.Invoicing] },
  ],
});

const stock = (id: string) => ({
  id,
  companyName: `Co ${id.slice(-1)}`,
  apiKey: 'k',
  feedUrl: 'f',
  invoiceTotal: 9,
});

describe('stripRestricted', () => {
  it('deletes from the body itself the fields the roles on its stock do not allow', () => {
    const viewer = user([], { [A]: [StockRole.ViewConfig] });
    expect(stripRestricted(stock(A), [stockFields('')], viewer)).toEqual({
      id: A,
      companyName: 'Co a',
      apiKey: 'k',
      feedUrl: 'f',
    });
    expect(stripRestricted(stock(A), [stockFields('')], user([], { [A]: [StockRole.Invoicing] }))).toEqual({
      id: A,
      companyName: 'Co a',
      invoiceTotal: 9,
    });
  });

  it('checks the roles on the stock the object names, not on another one', () => {
    const onB = user([], { [B]: [StockRole.ViewConfig, StockRole.Invoicing] });
    expect(stripRestricted(stock(A), [stockFields('')], onB)).toEqual({ id: A, companyName: 'Co a' });
  });

  it('reads the stock id from stockIdField when the entry names one', () => {
    const body = { stockId: A, apiKey: 'k', feedUrl: 'f', invoiceTotal: 1 };
    const viewer = user([], { [A]: [StockRole.ViewConfig] });
    expect(stripRestricted(body, [stockFields('', 'stockId')], viewer)).toEqual({
      stockId: A,
      apiKey: 'k',
      feedUrl: 'f',
    });
  });

  it('rewrites the object at a nested path and leaves the rest of the body alone', () => {
    const body = { success: true, stock: stock(A), errorMessage: null };
    expect(stripRestricted(body, [stockFields('stock')], user([], { [A]: [StockRole.Invoicing] }))).toEqual({
      success: true,
      stock: { id: A, companyName: 'Co a', invoiceTotal: 9 },
      errorMessage: null,
    });
  });

  it("rewrites each element of 'stocks[]' by that element's own stock", () => {
    const body = { stocks: [stock(A), stock(B)], unavailable: [] };
    const caller = user([], { [A]: [StockRole.ViewConfig], [B]: [StockRole.Invoicing] });
    expect(stripRestricted(body, [stockFields('stocks[]')], caller)).toEqual({
      stocks: [
        { id: A, companyName: 'Co a', apiKey: 'k', feedUrl: 'f' },
        { id: B, companyName: 'Co b', invoiceTotal: 9 },
      ],
      unavailable: [],
    });
  });

  it('leaves a body without the path, or with null there, as it is', () => {
    expect(stripRestricted({ stock: null }, [stockFields('stock')], user([]))).toEqual({ stock: null });
    expect(stripRestricted({ other: 1 }, [stockFields('stocks[]')], user([]))).toEqual({ other: 1 });
    expect(stripRestricted(null, [stockFields('')], user([]))).toBeNull();
  });

  it('checks a global-role rule on the caller', () => {
    const rule: RestrictedFields = {
      at: '',
      rules: [{ fields: ['invoiceTotal'], globalRoles: [GlobalRole.InvoiceTotal] }],
    };
    const body = { id: A, invoiceTotal: 5 };
    expect(stripRestricted(body, [rule], user([GlobalRole.InvoiceTotal]))).toEqual(body);
    expect(stripRestricted(body, [rule], user([GlobalRole.RunReports]))).toEqual({ id: A });
    expect(stripRestricted(body, [rule], undefined)).toEqual({ id: A });
  });

  it('lets either the global role or the stock role keep a field when a rule names both', () => {
    const rule: RestrictedFields = {
      at: '',
      rules: [
        {
          fields: ['invoiceTotal'],
          globalRoles: [GlobalRole.InvoiceTotal],
          stockRoles: [StockRole.Invoicing],
        },
      ],
    };
    const body = { id: A, invoiceTotal: 5 };
    expect(stripRestricted(body, [rule], user([GlobalRole.InvoiceTotal]))).toEqual(body);
    expect(stripRestricted(body, [rule], user([], { [A]: [StockRole.Invoicing] }))).toEqual(body);
    expect(stripRestricted(body, [rule], user([], { [B]: [StockRole.Invoicing] }))).toEqual({ id: A });
  });

  it('lets Admin keep every field', () => {
    const body = { stocks: [stock(A), stock(B)] };
    expect(stripRestricted(body, [stockFields('stocks[]')], user([GlobalRole.Admin]))).toEqual(body);
  });

  it('never mutates the handler’s objects', () => {
    const body = { success: true, stock: stock(A), list: { stocks: [stock(B)] } };
    const before = structuredClone(body);
    const out = stripRestricted(
      body,
      [stockFields('stock'), stockFields('list.stocks[]')],
      user([]),
    ) as typeof body;
    expect(body).toEqual(before);
    expect(out.stock).toEqual({ id: A, companyName: 'Co a' });
    expect(out.list.stocks).toEqual([{ id: B, companyName: 'Co b' }]);
    expect(out.stock).not.toBe(body.stock);
  });
});
