import type { CommentFlag } from '@irp/proto';
import { ListedCompany, listedCompanyFlags } from './listed-companies';
import { MODERATION_RULES, ModerationRule } from './moderation-rules';

export { KNOWN_LISTED_COMPANIES, LISTED_COMPANY_RULE, TICKER_STOP_WORDS } from './listed-companies';
export type { ListedCompany } from './listed-companies';
export { MODERATION_RULES } from './moderation-rules';
export type { ModerationRule } from './moderation-rules';

export interface ScreenContext {
  /** The stock the comment is about: never flagged as "another listed company". */
  own: { ticker: string; companyName: string };
  /** Other listed companies the portal knows (its client stocks); merged with the built-in list. */
  listedCompanies: readonly ListedCompany[];
}

/** What a flag quotes of the comment: the matched words on one line, at most this long. */
const MATCH_LENGTH = 80;

/** Typographic quotes and odd spaces as typed on a phone, so the patterns see plain apostrophes. */
const plain = (text: string) =>
  text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"');

const quoted = (match: string) => match.replace(/\s+/g, ' ').trim().slice(0, MATCH_LENGTH).trim();

function flagOf(rule: ModerationRule, text: string): CommentFlag | null {
  const found = rule.pattern.exec(text);
  if (!found) return null;
  return { rule: rule.id, category: rule.category, reason: rule.reason, match: quoted(found[0]) };
}

const byCategory = (category: CommentFlag['category']) =>
  MODERATION_RULES.filter((rule) => rule.category === category);
const DISCLOSURE = byCategory('disclosure');
const CONTACT_DETAILS = byCategory('contact-details');

/**
 * The moderation screen of an investor's comment (plain text, up to 2,000 characters): one flag per rule
 * that matched, disclosure first, then the other listed companies named (one flag each), then contact
 * details. No flags means nothing for the moderator to look out for.
 */
export function screenComment(text: string, context: ScreenContext): CommentFlag[] {
  const comment = plain(text);
  const flagsOf = (rules: readonly ModerationRule[]) =>
    rules.map((rule) => flagOf(rule, comment)).filter((flag): flag is CommentFlag => flag !== null);
  return [
    ...flagsOf(DISCLOSURE),
    ...listedCompanyFlags(comment, context.own, context.listedCompanies).map((flag) => ({
      ...flag,
      match: quoted(flag.match),
    })),
    ...flagsOf(CONTACT_DETAILS),
  ];
}
