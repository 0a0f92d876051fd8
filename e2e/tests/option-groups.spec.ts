import { expect, test } from '../fixtures';
import { uniqueTicker } from './stock-helpers';

/** What /new-order/{id} of an archived group says (proto's OPTION_GROUP_ARCHIVED_MESSAGE). */
const NO_LONGER_OFFERED =
  'This order form is no longer offered: ask us for the link to our current order form';

/**
 * Staff manage the order form's option groups on the Orders screen (docs/api/stocks.md, "Option groups"):
 * a group made there is offered at its own /new-order/{id}, and once archived that page says it is no
 * longer offered. The group made here is never the default, so /new-order stays the demo's for other specs.
 */
test('staff create a group with two options, the public form offers them, archived it is not offered', async ({
  page,
  signIn,
  browser,
}) => {
  const name = `E2E group ${uniqueTicker('G')}`;
  await signIn('admin');
  await page.goto('/orders');
  await expect(page.getByRole('heading', { name: 'Option groups' })).toBeVisible();
  await page.getByRole('button', { name: 'New option group' }).click();
  const editor = page.getByTestId('option-group-editor');
  // The rules are named before anything is sent.
  await editor.getByRole('button', { name: 'Save group' }).click();
  await expect(editor.getByTestId('option-group-messages')).toContainText('Group Name Required');

  await editor.getByLabel('Group name').fill(name);
  await editor.getByRole('button', { name: 'Add option' }).click();
  const [first, second] = [
    editor.getByTestId('option-editor').nth(0),
    editor.getByTestId('option-editor').nth(1),
  ];
  await first.getByLabel('Name', { exact: true }).fill('Essentials');
  await first.getByLabel(/^Price/).fill('1200');
  await first.getByLabel(/^Line items/).fill('Share price widgets\nAnnouncement emails');
  await second.getByLabel('Name', { exact: true }).fill('Complete');
  await second.getByLabel(/^Price/).fill('2600');
  await second.getByLabel(/^Line items/).fill('Everything in Essentials\nTrading activity reports');
  await second.getByRole('radio', { name: 'Default option' }).check();
  await editor.getByRole('button', { name: 'Save group' }).click();
  await expect(page.getByText(`Saved ${name}.`)).toBeVisible();

  const card = page.getByTestId('option-group').filter({ hasText: name });
  await expect(card.getByText('Default', { exact: true })).toHaveCount(0);
  const link = card.getByRole('link', { name: /^\/new-order\// });
  const path = (await link.textContent()) ?? '';
  expect(path).toMatch(/^\/new-order\/.+/);

  // The public form of the group (no sign-in needed): both cards, the group's default preselected.
  const visitor = await browser.newPage();
  // A context of its own has no base URL: the link's address on the staff page's origin.
  await visitor.goto(new URL(path, page.url()).toString());
  await expect(visitor.getByRole('heading', { name: 'Order Form' })).toBeVisible();
  const optionOne = visitor.getByRole('checkbox', { name: 'OPTION 1 - $1,200 + GST annual subscription' });
  const optionTwo = visitor.getByRole('checkbox', { name: 'OPTION 2 - $2,600 + GST annual subscription' });
  await expect(optionOne).not.toBeChecked();
  await expect(optionTwo).toBeChecked();
  await expect(visitor.getByText('Trading activity reports')).toBeVisible();

  // Archived after a confirmation: the same link now says the form is no longer offered.
  await card.getByRole('button', { name: 'Archive' }).click();
  const dialog = page.getByRole('dialog', { name: 'Archive option group' });
  await expect(dialog).toContainText('Orders already submitted keep their option.');
  await dialog.getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByText(`Archived ${name}: its order form is no longer offered.`)).toBeVisible();
  await expect(card.getByText('Archived', { exact: true })).toBeVisible();

  await visitor.reload();
  await expect(visitor.getByRole('alert')).toContainText(NO_LONGER_OFFERED);
  await expect(visitor.getByRole('checkbox', { name: /^OPTION 1 - / })).toHaveCount(0);
  await visitor.close();
});
