import {
  CLIENT_SAVE_FIELDS,
  CLIENT_STOCK_FIELDS,
  REPLY_TO_COMMENT_FIELDS,
  STOCK_FIELD_LABELS,
  StockRole,
  type ClientSaveField,
  type ClientSaveStockBody,
  type ClientStockDto,
} from '@irp/proto';

export type ClientConfigField = ClientSaveField;
/** The form's values: every field, those the stock came without (no role for them) blank. */
export type ClientConfigValues = Required<Pick<ClientStockDto, ClientConfigField>>;

export const CONFIG_SWITCHES = [
  'sendPriceSensitiveAnnouncements',
  'sendNonPriceSensitiveAnnouncements',
  'autoSendAnnouncementEmail',
  'autoSendNonPriceSensitiveAnnouncements',
] as const satisfies readonly ClientConfigField[];
export type ConfigSwitch = (typeof CONFIG_SWITCHES)[number];
export type ConfigTextField = Exclude<ClientConfigField, ConfigSwitch>;

/** Labels of the Config tab (spec section 2, Config tab fields): the one set the staff tab uses too. */
export const CONFIG_LABELS: Record<ClientConfigField, string> = STOCK_FIELD_LABELS;

/**
 * The fields this user may change on this stock: the client subset, plus the moderator, logo and
 * template fields with ReplyToComment (spec section 6). The server enforces the same (403).
 */
export function editableConfigFields(roles: readonly string[]): ClientConfigField[] {
  return roles.includes(StockRole.ReplyToComment)
    ? [...CLIENT_STOCK_FIELDS, ...REPLY_TO_COMMENT_FIELDS]
    : [...CLIENT_STOCK_FIELDS];
}

/**
 * The form's values of a client stock. The gateway leaves out the fields the user's roles on the stock do
 * not allow (the configuration without ViewConfig, the comment fields without ReplyToComment); those are
 * blank here, and never sent: only `editableConfigFields` are, which need the same roles.
 */
export function configValuesOf(stock: ClientStockDto): ClientConfigValues {
  const values: Partial<ClientConfigValues> = {};
  for (const field of CLIENT_SAVE_FIELDS) {
    const blank = (CONFIG_SWITCHES as readonly string[]).includes(field) ? false : '';
    Object.assign(values, { [field]: stock[field] ?? blank });
  }
  return values as ClientConfigValues;
}

export function changedConfigFields(
  saved: ClientConfigValues,
  edited: ClientConfigValues,
  fields: readonly ClientConfigField[],
): ClientConfigField[] {
  return fields.filter((field) => saved[field] !== edited[field]);
}

/** POST /api/ClientStock body: the stock and only the fields this user may change. */
export function clientSaveBody(
  combinedTicker: string,
  values: ClientConfigValues,
  fields: readonly ClientConfigField[],
): ClientSaveStockBody {
  const body: ClientSaveStockBody = { combinedTicker };
  for (const field of fields) Object.assign(body, { [field]: values[field] });
  return body;
}
