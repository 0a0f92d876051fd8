import {
  missingOrderFieldMessages,
  sendFlagsOf,
  type AutoSendChoice,
  type OrderFormBody,
  type ServiceOption,
} from '@irp/proto';

/** The form's text fields, as typed. */
export interface OrderFormValues {
  companyName: string;
  ticker: string;
  website: string;
  listingDate: string;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  abn: string;
  address: string;
  authorisedBy: string;
  confirmationEmail: string;
  /** The honeypot (proto's OrderFormSchema `fax`): hidden from people, so it stays empty. */
  fax: string;
}

export const EMPTY_ORDER_FORM: OrderFormValues = {
  companyName: '',
  ticker: '',
  website: '',
  listingDate: '',
  contactName: '',
  contactPhone: '',
  contactEmail: '',
  abn: '',
  address: '',
  authorisedBy: '',
  confirmationEmail: '',
  fax: '',
};

export type EmailMarketingService = 'mailchimp' | 'campaign-monitor';

export interface EmailMarketingValues {
  service: EmailMarketingService;
  listId: string;
  apiKey: string;
  templateId: string;
  replyTo: string;
  fromName: string;
  clientId: string;
}

export const EMPTY_EMAIL_MARKETING: EmailMarketingValues = {
  service: 'mailchimp',
  listId: '',
  apiKey: '',
  templateId: '',
  replyTo: '',
  fromName: '',
  clientId: '',
};

/** The option preselected when the cards load: the group's default, else the first. */
export const defaultOptionId = (options: readonly ServiceOption[]): string | null =>
  (options.find((o) => o.isDefault) ?? options[0])?.id ?? null;

/** The spec's 'Required' messages of what is missing (empty: the form may be sent). */
export const requiredMessages = (values: OrderFormValues): string[] => missingOrderFieldMessages(values);

/**
 * What the form sends: the fields, the chosen option, the flags the auto-send radio set (none chosen:
 * all four off), and the email-marketing settings only when given.
 */
export function orderBody(
  values: OrderFormValues,
  optionId: string | null,
  choice: AutoSendChoice | null,
  emailMarketing: EmailMarketingValues | null,
): OrderFormBody {
  const flags = choice
    ? sendFlagsOf(choice)
    : {
        sendPriceSensitiveAnnouncements: false,
        sendNonPriceSensitiveAnnouncements: false,
        autoSendAnnouncementEmail: false,
        autoSendNonPriceSensitiveAnnouncements: false,
      };
  return { ...values, option: optionId, ...flags, emailMarketing };
}
