import { z } from 'zod';
import { sealedOrKept } from '../common/sealed';
import { StockId } from '../common/session';
import { OPTION_GROUP_LIMITS, optionGroupProblems } from './option-group-rules';
import { REQUIRED_ORDER_FIELDS, missingOrderFieldMessages } from './order-rules';
import { ActorSchema } from './stock';

/**
 * Service orders and their options (spec section 3): the REST shapes of the order routes and the stocks
 * service's messages for them (docs/api/stocks.md, "Service orders").
 */

// ---------------------------------------------------------------------------------------------------
// Records

/** A service option (spec section 3). `price` is whole AUD excluding GST (stored as integer cents). */
export const ServiceOptionSchema = z.object({
  id: z.string().uuid(),
  groupId: z.string(),
  name: z.string(),
  price: z.number().int(),
  lineItems: z.array(z.string()),
  isDefault: z.boolean(),
});
export type ServiceOption = z.infer<typeof ServiceOptionSchema>;

/**
 * An option group as staff manage it (docs/api/stocks.md, "Option groups"): its options in card order,
 * whether /new-order shows it (the default, one group at most), and whether it was archived (its
 * /new-order/{id} then says it is no longer offered; orders placed with its options keep theirs).
 */
export const ServiceOptionGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  archived: z.boolean(),
  options: z.array(ServiceOptionSchema),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
});
export type ServiceOptionGroup = z.infer<typeof ServiceOptionGroupSchema>;

/** The option as the order keeps it: what the client saw when ordering (prices may change later). */
export const OrderedOptionSchema = z.object({
  name: z.string(),
  price: z.number().int(),
  lineItems: z.array(z.string()),
});

/** What an order's email-marketing API key reads as outside the stocks and email-marketing services. */
export const ORDER_KEY_GIVEN = '(given)';

/**
 * Optional email-marketing settings given on the form (either service); kept with the order for staff. The
 * API key crosses the bus sealed for the email-marketing service (the gateway seals it; the stocks service
 * keeps it as sealed and never reads it), or as ORDER_KEY_GIVEN in the staff list.
 */
export const OrderEmailMarketingSchema = z.object({
  service: z.enum(['mailchimp', 'campaign-monitor']),
  listId: z.string().max(200),
  apiKey: sealedOrKept(ORDER_KEY_GIVEN),
  templateId: z.string().max(200),
  replyTo: z.string().max(400),
  fromName: z.string().max(200),
  clientId: z.string().max(200),
});
export type OrderEmailMarketing = z.infer<typeof OrderEmailMarketingSchema>;

/** A service order as staff see it (spec section 3's list item, plus what the form gave). */
export const ServiceOrderSchema = z.object({
  id: z.string().uuid(),
  timestamp: z.string().datetime(),
  companyName: z.string(),
  ticker: z.string(),
  reference: z.string(),
  option: OrderedOptionSchema.nullable(),
  authorisedBy: z.string(),
  website: z.string(),
  address: z.string(),
  contactName: z.string(),
  contactPhone: z.string(),
  contactEmail: z.string(),
  abn: z.string(),
  listingDate: z.string(),
  confirmationEmail: z.string(),
  sendPriceSensitiveAnnouncements: z.boolean(),
  sendNonPriceSensitiveAnnouncements: z.boolean(),
  autoSendAnnouncementEmail: z.boolean(),
  autoSendNonPriceSensitiveAnnouncements: z.boolean(),
  emailMarketing: OrderEmailMarketingSchema.nullable(),
  isCreated: z.boolean(),
  /** The stock made from it (null until created). */
  combinedTicker: z.string().nullable(),
});
export type ServiceOrder = z.infer<typeof ServiceOrderSchema>;

// ---------------------------------------------------------------------------------------------------
// REST

const text = (max: number) =>
  z
    .string({ invalid_type_error: 'must be text' })
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ?? '').trim());

/**
 * POST /api/serviceorder/: the order form (spec section 3). Presence of the nine required fields is
 * checked on the whole form, so the 400 lists each missing field's own message (spec section 5), joined
 * with '; ': 'Company Name Required; Ticker/ASX Code Required'. No format checks.
 */
export const OrderFormSchema = z
  .object({
    companyName: text(400),
    ticker: text(20),
    website: text(400),
    listingDate: text(40),
    contactName: text(200),
    contactPhone: text(60),
    contactEmail: text(400),
    abn: text(40),
    address: text(400),
    authorisedBy: text(200),
    /**
     * A honeypot: the web form hides this field from people (off-screen, out of the tab order, unlabelled
     * for assistive technology), so a value means a bot filled every field. The gateway then answers as for
     * an order and stores nothing (docs/security.md).
     */
    fax: text(200),
    /** GET /api/serviceorder/form-token's token, fetched when the form was shown (ORDER_FORM_TOKEN_MESSAGE). */
    formToken: text(200),
    /**
     * The chosen option (optional): its id, or the option as GET /api/serviceorder/services/ listed it
     * (its id is what counts; a spec client sends the option back as read).
     */
    option: z
      .union([
        z.string().uuid('must be an option id'),
        z.object({ id: z.string().uuid('must be an option id') }).passthrough(),
      ])
      .nullish()
      .transform((o) => (o && typeof o === 'object' ? o.id : o)),
    confirmationEmail: text(2000),
    sendPriceSensitiveAnnouncements: z.boolean().default(false),
    sendNonPriceSensitiveAnnouncements: z.boolean().default(false),
    autoSendAnnouncementEmail: z.boolean().default(false),
    autoSendNonPriceSensitiveAnnouncements: z.boolean().default(false),
    emailMarketing: z
      .object({
        service: z.enum(['mailchimp', 'campaign-monitor'], {
          invalid_type_error: "must be 'mailchimp' or 'campaign-monitor'",
        }),
        listId: text(200),
        apiKey: text(200),
        templateId: text(200),
        replyTo: text(400),
        fromName: text(200),
        clientId: text(200),
      })
      .nullish(),
  })
  .superRefine((form, ctx) => {
    for (const message of missingOrderFieldMessages(form))
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  });
export type OrderForm = z.output<typeof OrderFormSchema>;
export type OrderFormBody = z.input<typeof OrderFormSchema>;
export const REQUIRED_ORDER_FIELD_NAMES = REQUIRED_ORDER_FIELDS.map(([field]) => field);

export const SubmitOrderResponseSchema = z.object({ success: z.literal(true), id: z.string().uuid() });
/** GET /api/serviceorder/form-token: the order form's render-time token, sent back as `formToken`. */
export const OrderFormTokenResponseSchema = z.object({ token: z.string() });

/** `?groupId=` of GET /api/serviceorder/services/ (absent: the default group). */
export const ServiceOptionsQuerySchema = z.object({
  groupId: z.string().trim().max(100, 'must be at most 100 characters').optional(),
});
/** GET /api/serviceorder/services/?groupId (spec section 7: "returns options"). */
export const ServiceOptionListSchema = z.object({ options: z.array(ServiceOptionSchema) });

// Option groups (staff, the Orders screen)

const groupText = (max: number, label: string) =>
  z
    .string({ required_error: `${label} Required`, invalid_type_error: 'must be text' })
    .max(max, `must be at most ${max} characters`);

/**
 * POST /api/admin/saveServiceOptionGroup: a new group (no id) or an edit of one (its id; options given
 * with their id keep it). Shape errors name their field; the group rules (proto's optionGroupProblems)
 * are checked on the whole group, so the 400 lists each problem, joined with '; '.
 */
export const SaveOptionGroupSchema = z
  .object({
    id: z.string().trim().max(100).nullish(),
    name: groupText(OPTION_GROUP_LIMITS.name + 200, 'Group Name'),
    options: z
      .array(
        z.object({
          id: z.string().uuid('must be an option id').nullish(),
          name: groupText(OPTION_GROUP_LIMITS.optionName + 200, 'Option Name'),
          price: z.number({ required_error: 'Required', invalid_type_error: 'must be a number' }),
          lineItems: z
            .array(groupText(OPTION_GROUP_LIMITS.lineItem + 200, 'Line Item'))
            .max(200)
            .default([]),
          isDefault: z.boolean().default(false),
        }),
      )
      .max(50),
  })
  .strict()
  .superRefine((group, ctx) => {
    for (const message of optionGroupProblems(group)) ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  });
export type SaveOptionGroupBody = z.input<typeof SaveOptionGroupSchema>;

/** The group a staff action names. */
const groupId = z
  .string({ required_error: 'Required', invalid_type_error: 'must be text' })
  .trim()
  .min(1, 'Required')
  .max(100, 'must be at most 100 characters');
export const OptionGroupIdSchema = z.object({ id: groupId }).strict();
/** POST /api/admin/archiveServiceOptionGroup: archive (true) or restore (false). */
export const ArchiveOptionGroupSchema = z
  .object({
    id: groupId,
    archived: z.boolean({ required_error: 'Required', invalid_type_error: 'must be true or false' }),
  })
  .strict();

export const OptionGroupListSchema = z.object({ groups: z.array(ServiceOptionGroupSchema) });
export const OptionGroupResponseSchema = z.object({ group: ServiceOptionGroupSchema });

export const ServiceOrderListSchema = z.object({ serviceOrders: z.array(ServiceOrderSchema) });

/** POST /api/admin/createStockFromServiceOrder/ (spec section 3's create payload). */
export const CreateStockFromOrderSchema = z
  .object({
    serviceOrderId: z.string({ required_error: 'Required' }).uuid('must be a service order id'),
    ticker: z.string({ required_error: 'Required', invalid_type_error: 'must be text' }).max(20),
    reference: z
      .string({ invalid_type_error: 'must be text' })
      .max(200)
      .nullish()
      .transform((v) => (v ?? '').trim()),
  })
  .strict();
export type CreateStockFromOrderBody = z.input<typeof CreateStockFromOrderSchema>;
/** Errors answer the one error body, whose `errorMessage` the staff screen shows. */
export const CreateStockFromOrderResponseSchema = z.object({
  url: z.string(),
  errorMessage: z.null(),
});

/** GET /api/admin/getServiceOrder?ticker: the order the stock was created from, or null. */
export const ServiceOrderOfStockSchema = ServiceOrderSchema.nullable();

/**
 * An address autocomplete session's token, as the address service (Places API (New)) takes it: "a URL and
 * filename safe base64 string with at most 36 ASCII characters" (a version 4 UUID); anything else it refuses.
 */
export const AddressSessionTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,36}$/, 'must be a URL and filename safe string of at most 36 characters');

/** GET /api/serviceorder/addresses?q: suggestions, or `available: false` with none configured. */
export const AddressQuerySchema = z.object({
  q: z.string({ required_error: 'Required' }).trim().max(200, 'must be at most 200 characters'),
  sessionToken: AddressSessionTokenSchema.optional(),
});
export const AddressSuggestionSchema = z.object({ placeId: z.string(), text: z.string() });
export const AddressSuggestionsSchema = z.object({
  available: z.boolean(),
  suggestions: z.array(AddressSuggestionSchema),
  /** Why suggestions are off, for the form to show (a spent budget); absent when none is configured. */
  message: z.string().optional(),
});
export type AddressSuggestions = z.infer<typeof AddressSuggestionsSchema>;

// ---------------------------------------------------------------------------------------------------
// Messages

/** An empty groupId: the group marked the default (the form's /new-order). */
export const ServiceOptionsRequestSchema = z.object({ groupId: z.string().max(100) });
export const ServiceOptionsReplySchema = z.object({ options: z.array(ServiceOptionSchema) });

const OptionDraftMessageSchema = z.object({
  id: z.string().uuid().nullish(),
  name: z.string(),
  price: z.number(),
  lineItems: z.array(z.string()),
  isDefault: z.boolean(),
});
export const OptionGroupsRequestSchema = z.object({ actor: ActorSchema });
export const OptionGroupsReplySchema = OptionGroupListSchema;
export const SaveOptionGroupRequestSchema = z.object({
  actor: ActorSchema,
  group: z.object({
    id: z.string().max(100).nullish(),
    name: z.string(),
    options: z.array(OptionDraftMessageSchema),
  }),
});
export const SetDefaultOptionGroupRequestSchema = z.object({ actor: ActorSchema, id: z.string().max(100) });
export const ArchiveOptionGroupRequestSchema = z.object({
  actor: ActorSchema,
  id: z.string().max(100),
  archived: z.boolean(),
});
export const OptionGroupReplySchema = OptionGroupResponseSchema;

export const SubmitOrderRequestSchema = z.object({
  form: z.object({
    companyName: z.string(),
    ticker: z.string(),
    website: z.string(),
    listingDate: z.string(),
    contactName: z.string(),
    contactPhone: z.string(),
    contactEmail: z.string(),
    abn: z.string(),
    address: z.string(),
    authorisedBy: z.string(),
    option: z.string().uuid().nullish(),
    confirmationEmail: z.string(),
    sendPriceSensitiveAnnouncements: z.boolean(),
    sendNonPriceSensitiveAnnouncements: z.boolean(),
    autoSendAnnouncementEmail: z.boolean(),
    autoSendNonPriceSensitiveAnnouncements: z.boolean(),
    emailMarketing: OrderEmailMarketingSchema.nullish(),
  }),
});
export const SubmitOrderReplySchema = z.object({ id: z.string().uuid() });

export const ServiceOrdersRequestSchema = z.object({ actor: ActorSchema });
export const ServiceOrdersReplySchema = ServiceOrderListSchema;

export const CreateStockFromOrderRequestSchema = z.object({
  actor: ActorSchema,
  serviceOrderId: z.string().uuid(),
  ticker: z.string().max(20),
  reference: z.string().max(200),
});
export const CreateStockFromOrderReplySchema = z.object({ stockId: StockId, combinedTicker: z.string() });

export const ServiceOrderOfStockRequestSchema = z.object({ combinedTicker: z.string().min(1).max(40) });
export const ServiceOrderOfStockReplySchema = z.object({ serviceOrder: ServiceOrderSchema.nullable() });

export const AddressSuggestionsRequestSchema = z.object({
  q: z.string().max(200),
  sessionToken: AddressSessionTokenSchema.optional(),
});
export const AddressSuggestionsReplySchema = AddressSuggestionsSchema;

/**
 * `stocks.service-order-email-marketing`: the email-marketing settings a prospective client gave on the order
 * form, the key opened (null when the form gave none). Asked by the email-marketing service alone, after
 * `service-order.stock-created`, to apply them to the new stock; no gateway route reaches it. Its topics
 * keep a secret, so they are kept for minutes (deploy/topics.json).
 */
export const ServiceOrderEmailMarketingRequestSchema = z.object({ serviceOrderId: z.string().uuid() });
export const ServiceOrderEmailMarketingReplySchema = z.object({
  emailMarketing: OrderEmailMarketingSchema.nullable(),
});

/**
 * `service-order.stock-created`: staff made the order's stock (keyed by the order's id), published in the
 * same transaction. `emailMarketing` says whether the order gave email-marketing settings; the settings
 * themselves never go into the event (they hold the provider's API key): whoever applies them asks
 * `stocks.service-order-email-marketing`.
 */
export const ServiceOrderStockCreatedEventSchema = z.object({
  serviceOrderId: z.string().uuid(),
  stockId: StockId,
  combinedTicker: z.string(),
  emailMarketing: z.boolean(),
  /** The staff member who created it (who the applied settings name as saved by). */
  by: z.string(),
});
export type ServiceOrderStockCreatedEvent = z.infer<typeof ServiceOrderStockCreatedEventSchema>;

/** `service-order.submitted`: a new order, for staff to hear about (keyed by the order's id). */
export const ServiceOrderSubmittedEventSchema = z.object({ order: ServiceOrderSchema });
export type ServiceOrderSubmittedEvent = z.infer<typeof ServiceOrderSubmittedEventSchema>;
