import type { CommentFlag } from '@irp/proto';

/**
 * The pattern rules of the moderation screen: what in an investor's comment a company's moderator should
 * see before answering or publishing it. Each rule is data: an id, its category, the sentence shown to the
 * moderator and a pattern. A rule flags a comment once, with the text its pattern found first.
 *
 * The disclosure rules aim at questions about what has not been released (ASX Listing Rule 3.1): a question
 * about results, guidance or a deal that is already public is not flagged, so the patterns look for the
 * future or the pending ("will", "before they are announced", "in talks", "coming") rather than the topic.
 */
export interface ModerationRule {
  id: string;
  category: CommentFlag['category'];
  /** What the moderator reads: why the comment needs a look. */
  reason: string;
  /** Not global: a rule reports its first match only. */
  pattern: RegExp;
}

/** Any of the alternatives, case-insensitive. Written with String.raw, so `\b` reads as in a literal. */
const anyOf = (...alternatives: string[]) => new RegExp(alternatives.map((a) => `(?:${a})`).join('|'), 'i');

/** Between zero and n words, in one sentence: a pattern's two halves may not span a full stop. */
const upTo = (n: number) => String.raw`[\s,]+(?:[\w'-]+[\s,]+){0,${n}}?`;

/** Who an investor asks: the company, its board or its managers. */
const COMPANY = String.raw`(?:you|the company|the board|the directors|management|the business|we|they)`;

/** What a company reports in its results. */
const FIGURES = String.raw`(?:results?|earnings|profits?|loss|revenues?|sales|numbers|figures|financials|production|npat|ebitda|ebit|eps|margins?|cash ?flows?|assays?|grades?)`;

/** A deal or capital raising in the making. */
const DEAL = String.raw`(?:acquisitions?|acquir(?:e|ing)|acquirers?|mergers?|merg(?:e|ing)|deals?|transactions?|(?:capital|equity) rais(?:e|es|ing)|rais(?:e|ing) (?:capital|equity|money|funds|cash)|placements?|rights issues?|entitlement offers?|share purchase plans?|divest(?:ments?|ing|itures?)?|sale of (?:the|a|its|your|our)\s+[\w-]+|joint ventures?|farm[- ]?(?:ins?|outs?)|offtakes?|offtake agreements?|strategic (?:review|partners?|investors?|alternatives)|spin[- ]?offs?|demergers?|buy[- ]?backs?|share (?:consolidation|split)s?|(?:dual|secondary|overseas) listings?|list(?:ing)? (?:on|in) (?:the )?(?:nasdaq|nyse|lse|tsx|aim|us|london|new york|toronto))`;

const DISCLOSURE_RULES: ModerationRule[] = [
  {
    id: 'unreleased-results',
    category: 'disclosure',
    reason: 'Asks about results before they are released (continuous disclosure)',
    pattern: anyOf(
      // "Will the results be better than last year?", "profit should come in higher"
      String.raw`\b${FIGURES}${upTo(4)}(?:be|come in|land|end up|turn out)\s+(?:\w+\s+)?(?:higher|lower|better|worse|up|down|strong|stronger|weak|weaker|good|great|bad|poor|positive|negative|above|below|ahead|behind|in line|a loss|a profit|record|improved|disappointing|impressive|similar|flat)\b(?!\s+(?:explained|presented|detailed|described|communicated|laid out|formatted))`,
      // "How is the quarter tracking?", "How are the drill results looking?"
      String.raw`\bhow\s+(?:are|is|will)\s+(?:the\s+|your\s+|this\s+|our\s+)?(?:[\w-]+\s+){0,2}?(?:${FIGURES}|quarter|half|year|drilling)\s+(?:\w+\s+)?(?:looking|tracking|trending|shaping up|going|coming along|turning out|look)\b`,
      // "Are sales going well this quarter?"
      String.raw`\b(?:are|is)\s+(?:the\s+|your\s+)?(?:[\w-]+\s+)?${FIGURES}\s+(?:going|tracking|trending|holding up)\s+(?:well|badly|ok|okay|better|worse|to plan|as expected|up|down)\b`,
      // "Can you share the numbers before they are released?"
      String.raw`\b${FIGURES}${upTo(6)}(?:before|ahead of|prior to)\s+(?:\w+\s+){0,2}?(?:release[ds]?|announce\w*|publish\w*|lodge\w*|come out|go out|out|disclos\w*)\b`,
      // "Any hint on the half-year numbers?"
      String.raw`\b(?:hints?|previews?|sneak peek|early (?:look|read|indication|view)|clues?|colou?r|steer|whisper)\s+(?:on|of|about|into|as to|regarding|re)\s+(?:[\w-]+\s+){0,3}?(?:${FIGURES}|quarter|quarterly|half[- ]year|half|full[- ]year|dividend|drilling)\b`,
      // "Are the assays back yet?"
      String.raw`\b(?:are|is|have|has)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:assays?|assay results|drill(?:ing)? results|lab results|results|numbers)\s+(?:[\w-]+\s+){0,5}?(?:back|in yet|come back|come in|arrived|returned|ready|finali[sz]ed)\b`,
      // "What will the results show?", "Can you tell us what the earnings will be?"
      String.raw`\bwhat\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?${FIGURES}\s+will\s+(?:be|look like|show)\b`,
      String.raw`\bwhat\s+(?:will\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?${FIGURES}|(?:are|is)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?${FIGURES}\s+going to)\s+(?:show|look like|be|reveal|say|include)\b`,
    ),
  },
  {
    id: 'guidance',
    category: 'disclosure',
    reason: 'Asks for guidance or a forecast the company has not given (continuous disclosure)',
    pattern: anyOf(
      // "Will you upgrade guidance?", "Will the results beat consensus?"
      String.raw`\b(?:will|would|going to|likely to|plan(?:ning)? to|expect(?:ing)? to|any chance (?:of|to)|consider(?:ing)?)${upTo(3)}(?:upgrad\w*|downgrad\w*|revis\w*|rais\w*|lower\w*|cut\w*|reaffirm\w*|withdraw\w*|chang\w*|updat\w*|confirm\w*|maintain\w*|beat\w*|miss\w*|meet\w*|hit\w*|exceed\w*|achiev\w*|deliver\w*|provid\w*|giv\w*|issu\w*|shar\w*)${upTo(3)}(?:guidance|forecasts?|consensus|targets?|expectations|estimates)\b`,
      // "Can you give us FY26 guidance?"
      String.raw`\b(?:give|provide|share|issue|release|announce|tell)\s+(?:us\s+|me\s+|investors\s+|shareholders\s+|the market\s+)?(?:(?:any|some|an?|the|your|its|more|formal|updated?|new|earnings|profit|revenue|production|fy\s?\d{2,4}|full[- ]year|\d{4})\s+){0,3}(?:guidance|forecasts?|projections?|outlook)\b`,
      // "Are you on track to meet guidance?"
      String.raw`\b(?:on track|tracking|on target|on course)\s+(?:to\s+(?:meet|hit|achieve|deliver|beat|exceed)|for|with)\s+(?:[\w-]+\s+){0,2}?(?:guidance|forecasts?|targets?|consensus|budget)\b`,
      // "What is your revenue forecast for FY26?"
      String.raw`\bwhat(?:'s| is| are| will be)\s+(?:your|the company's|management's|the board's)\s+(?:[\w-]+\s+){0,2}?(?:guidance|forecasts?|projections?|outlook|expectations?|targets?)\b`,
      // "What profit should investors expect?"
      String.raw`\bwhat\s+(?:revenue|profit|earnings|production|sales|eps|dividend|growth|margins?|npat|ebitda)\s+(?:do|does|should|will|can|could)\s+(?:you|we|investors|shareholders|holders|the company|management)\s+(?:expect|forecast|anticipate|project|see|target)\b`,
      // "Is there guidance for next year?"
      String.raw`\bguidance\s+(?:for|on)\s+(?:the\s+)?(?:fy\s?\d{2,4}|20\d\d|next|coming|this|current|full|second|h[12]|q[1-4]|remainder|rest)\b`,
      // "Can you forecast next year?", "Do you expect revenue to grow next year?"
      String.raw`\b(?:do|does|can|could|would|will)\s+${COMPANY}\s+(?:\w+\s+)?(?:forecast|predict)\b`,
      String.raw`\b(?:do|does|can|could|would)\s+${COMPANY}\s+(?:\w+\s+)?(?:expect|estimate|anticipate|project|see)${upTo(3)}(?:${FIGURES}|growth|dividends?|costs?|returns?|share price)${upTo(3)}(?:to\s+)?(?:grow\w*|increas\w*|ris(?:e|es|ing)|fall\w*|drop\w*|declin\w*|improv\w*|recover\w*|doubl\w*|exceed\w*|reach\w*|be (?:higher|lower|better|worse|up|down|positive|negative|above|below|strong|weak|flat))\b`,
    ),
  },
  {
    id: 'pending-deal',
    category: 'disclosure',
    reason: 'Asks about a deal, acquisition or capital raising that may be under way (continuous disclosure)',
    pattern: anyOf(
      // "Are you in talks about an acquisition?", "Is the board considering a sale of the business?"
      String.raw`\b(?:negotiat\w*|in talks|talks with|(?:advanced|ongoing|secret) talks|in discussions?|discussions? with|(?:are|is|be)\s+(?:\w+\s+){0,2}?(?:considering|discussing|exploring)|planning|plans? (?:for|to)|about to|rumou?r\w*|speculat\w*|looking to|close to|nearing|finali[sz]\w*|any plans?)${upTo(5)}${DEAL}\b`,
      // "a potential acquisition", "another placement"
      String.raw`\b(?:potential|possible|proposed|upcoming|pending|imminent|mooted|rumou?red|secret|further)\s+(?:[\w-]+\s+)?${DEAL}\b`,
      // "Is the merger going ahead?", "Is a placement on the cards?"
      String.raw`\b${DEAL}${upTo(2)}(?:being negotiated|under negotiation|in the works|on the table|in the pipeline|imminent|soon|coming|on the cards|going ahead|still on)\b`,
      // "Is a capital raising likely?"
      String.raw`\b(?:is|are)\s+(?:a|an|another|any|the)\s+(?:[\w-]+\s+)?${DEAL}\s+(?:likely|expected|planned|coming|imminent|happening|close)\b`,
      // "Are you going to raise capital?", "Do you plan to sell the Perth asset?"
      String.raw`\b(?:are|is|will|would|do|does)\s+${COMPANY}\s+(?:[\w-]+\s+){0,2}?(?:acquir\w*|buy(?:ing)? (?:out|(?:a|an|another) (?:[\w-]+ )?(?:company|business|stake|competitor|rival|asset|mine|project))|merg\w*|rais\w* (?:more )?(?:capital|money|funds|equity|cash)|do(?:ing)? (?:a|another) (?:capital )?rais\w*|sell(?:ing)? (?:off )?(?:the|a|its|your|our|some) (?:[\w-]+ )?(?:assets?|business|division|stake|project|mine|interest|subsidiary|operations?)|divest\w*|tak(?:e|ing) over|bid(?:ding)? for)`,
      // "Will the company need to raise more capital?"
      String.raw`\b(?:need|needs|have|has)\s+to\s+raise\s+(?:more\s+|further\s+|new\s+)?(?:capital|money|funds|equity|cash)\b`,
    ),
  },
  {
    id: 'takeover',
    category: 'disclosure',
    reason: 'Mentions a takeover, bid or approach (continuous disclosure)',
    pattern: anyOf(
      String.raw`\btake[- ]?overs?\b|\btaken\s+over\b|\bbuy[- ]?outs?\b|\bsuitors?\b|\bnbio\b|\bscheme of arrangement\b`,
      String.raw`\btak(?:e|ing)\s+(?:the company|us|you|it)\s+(?:over|private)\b`,
      String.raw`\bnon[- ]binding\s+(?:indicative\s+)?(?:offer|proposal)s?\b`,
      String.raw`\b(?:received|receive|had|got|fielded|rejected|considering)\s+(?:an?\s+|any\s+)?(?:approach(?:es)?|bids?|(?:unsolicited|indicative|takeover|buyout|acquisition|control|non[- ]binding)\s+(?:approach(?:es)?|bids?|offers?|proposals?))\b`,
      String.raw`\b(?:bid|offer|approach)\s+for\s+(?:the company|us|you|your company)\b`,
      String.raw`\bprivate equity${upTo(4)}(?:interest|interested|bid|offer|approach|circling|sniffing)\b`,
    ),
  },
  {
    id: 'price-sensitive',
    category: 'disclosure',
    reason: 'Asks for price-sensitive or unreleased information (continuous disclosure)',
    pattern: anyOf(
      String.raw`\b(?:price|market)[- ]sensitive\b|\bmaterial\s+(?:non[- ]public\s+)?information\b|\bnon[- ]public\b`,
      String.raw`\b(?:unreleased|unannounced|unpublished|undisclosed)\b`,
      String.raw`\bnot\s+(?:yet\s+)?(?:been\s+)?(?:released|announced|disclosed|made public)\b|\byet\s+to\s+be\s+(?:released|announced|disclosed|made public)\b`,
      String.raw`\b(?:before|ahead of|prior to)\s+(?:it|they|this|the news|the information|the announcement)(?:'s|'re|\s+is|\s+are|\s+goes|\s+go|\s+gets|\s+get)?\s+(?:released|announced|disclosed|made public|public|out)\b`,
    ),
  },
  {
    id: 'insider-information',
    category: 'disclosure',
    reason: 'Asks for inside information or a private tip',
    pattern: anyOf(
      String.raw`\b(?:insider|inside)\s+(?:information|info|knowledge|tips?|word|track|scoop)\b`,
      String.raw`\b(?:tip[- ]off|off the record|between you and me|on the quiet|sneak (?:peek|preview)|confidential(?:ly| information| details))\b`,
      String.raw`\b(?:give|gives|giving|get|any|early)\s+(?:\w+\s+){0,2}?heads[- ]?up\b`,
      String.raw`\bprivately\s+(?:tell|share|let|confirm)\b`,
    ),
  },
  {
    id: 'news-coming',
    category: 'disclosure',
    reason: 'Asks whether news or an announcement is coming (continuous disclosure)',
    pattern: anyOf(
      // "Any news coming soon?"
      String.raw`\b(?:any|some|more|big|major|good|exciting|positive|significant|material)\s+(?:news|announcements?|updates?|catalysts?)\s+(?:\w+\s+)?(?:coming|due|pending|imminent|soon|expected|on the way|in the pipeline|around the corner|shortly|to come|on the horizon)\b`,
      // "Is there an announcement coming?"
      String.raw`\b(?:is|are)\s+there\s+(?:[\w-]+\s+){0,2}?(?:news|announcements?|updates?|developments?|anything|something)${upTo(2)}(?:coming|due|pending|imminent|expected|on the way|in the pipeline|brewing|happening|going on|investors should know|we should know|to be announced)\b`,
      // "When will we hear news about the project?"
      String.raw`\b(?:when|will)\s+(?:[\w-]+\s+){0,3}?(?:we|investors|shareholders|holders|the market)\s+(?:[\w-]+\s+){0,2}?(?:hear|get|see|expect)\s+(?:[\w-]+\s+){0,2}?(?:news|announcements?|updates?)\b`,
      String.raw`\bsomething\s+(?:big|major|exciting|significant|good|bad)\s+(?:is\s+)?(?:coming|happening|brewing|going on|about to)\b`,
      String.raw`\b(?:anything|something)\s+(?:\w+\s+)?(?:in the pipeline|in the works|to announce|we should know)\b`,
      String.raw`\bnews\s+(?:coming|due|soon|pending|imminent)\b`,
    ),
  },
  {
    id: 'share-price-movement',
    category: 'disclosure',
    reason: 'Asks why the share price is moving or about a trading halt (continuous disclosure)',
    pattern: anyOf(
      // "Why is the share price up 20% today?"
      String.raw`\bwhy\s+(?:is|are|has|have)\s+(?:the\s+|our\s+|your\s+)?(?:share\s+price|stock\s+price|price|shares?|stock|sp)\s+(?:\w+\s+){0,2}?(?:moving|moved|up|down|rising|risen|falling|fallen|dropping|dropped|jumping|jumped|spiking|spiked|surging|surged|running|tanking|tanked|crashing|crashed|plunging|plunged|soaring|soared|climbing|climbed|sliding|slid|sinking|sunk|rallying|rallied|so (?:high|low|volatile))\b`,
      String.raw`\b(?:share|stock)\s+price\s+(?:is\s+|has\s+)?(?:spiking|surging|jumping|running|tanking|crashing|plunging|soaring|spiked|surged|jumped|tanked|crashed|plunged|soared)\b`,
      String.raw`\bwhat(?:'s| is)\s+(?:going on|happening)\s+with\s+(?:the\s+)?(?:share\s+price|stock|shares|price)\b`,
      String.raw`\btrading\s+halts?\b|\b(?:price|aware)\s+query\b|\b(?:shares|stock)\s+(?:\w+\s+)?suspended\b`,
      String.raw`\b(?:unusual|abnormal|heavy|strange)\s+(?:trading|volumes?|buying|selling)\b`,
    ),
  },
  {
    id: 'dividend-decision',
    category: 'disclosure',
    reason: 'Asks about a dividend decision not yet announced (continuous disclosure)',
    pattern: anyOf(
      // "Will the board declare a special dividend?", "Will there be a dividend this year?"
      String.raw`\b(?:will|would|are|is)\s+(?:${COMPANY}|there)\s+(?:[\w-]+\s+){0,3}?(?:pay|declare|increase|raise|lift|cut|reduce|lower|maintain|hold|reinstate|resume|suspend|cancel|scrap|skip|be)\s+(?:[\w-]+\s+){0,2}?(?:dividends?|distributions?|payouts?)\b`,
      // "Will the next dividend be higher?"
      String.raw`\b(?:next|upcoming|final|interim|special|coming|future)\s+(?:dividends?|distributions?)\s+(?:\w+\s+){0,2}?be\s+(?:higher|lower|bigger|smaller|increased|cut|reduced|maintained|similar|the same|more|less|above|below|at least)\b`,
      String.raw`\bhow much\s+will\s+(?:the\s+)?(?:next\s+|final\s+|interim\s+|special\s+)?(?:dividends?|distributions?)\b`,
      String.raw`\b(?:chances?|likelihood|possibility|prospects?)\s+(?:of|for)\s+(?:a|an|any)\s+(?:\w+\s+)?(?:dividend|capital return|buy[- ]?back)\b`,
      String.raw`\bdividend\s+(?:decision|determination)\b`,
    ),
  },
];

const CONTACT_DETAILS_RULES: ModerationRule[] = [
  {
    id: 'email-address',
    category: 'contact-details',
    reason: 'Contains an email address',
    pattern: anyOf(
      String.raw`(?<![\w.+-])[\w.%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b`,
      // "jo at gmail dot com", "jo [at] gmail [dot] com"
      String.raw`(?<![\w.])[\w.]+\s*(?:\[at\]|\(at\)|\sat\s)\s*[\w-]+\s*(?:\[dot\]|\(dot\)|\sdot\s)\s*(?:com|net|org|au)\b`,
    ),
  },
  {
    id: 'phone-number',
    category: 'contact-details',
    reason: 'Contains a phone number',
    // Australian mobile, landline and 1300/1800 numbers, and international numbers (+ and at least eight
    // digits). Not a date (12/03/2025), a price ($1.20) or a decimal: no slash, dot or $ around them.
    pattern: new RegExp(
      [
        String.raw`(?<![\d/.,$])(?:04\d{2}[\s-]?\d{3}[\s-]?\d{3}|\(0[2378]\)[\s-]?\d{4}[\s-]?\d{4}|0[2378][\s-]?\d{4}[\s-]?\d{4}|1[38]00[\s-]?\d{3}[\s-]?\d{3})(?![\d/]|[.,]\d)`,
        String.raw`(?<![\w+])\+(?=(?:[\s().-]*\d){8})\d{1,3}(?:[\s-]?(?:\(\d{1,4}\)|\d{1,5})){2,5}(?![\d/]|[.,]\d)`,
        // "call me on 9876 5432"
        String.raw`\b(?:call|phone|ring|tel|mob(?:ile)?|text|sms|whats ?app)\b(?:\s+(?:me|us))?(?:\s+(?:on|at))?[\s:.]*\d{4}[\s-]?\d{4}\b`,
      ].join('|'),
      'i',
    ),
  },
  {
    id: 'link',
    category: 'contact-details',
    reason: 'Contains a link or web address',
    // A bare domain needs a lowercase top-level domain that people use (example.com.au): "e.g.", "3.5%",
    // "BHP.AX" and a missing space after a full stop ("results.Can") are not links.
    pattern: new RegExp(
      [
        String.raw`\b(?:https?:\/\/|www\.)[^\s<>"']*[^\s<>"'.,;:!?)\]]`,
        String.raw`\b(?:bit\.ly|t\.co|youtu\.be|lnkd\.in)\/[^\s<>"']*[^\s<>"'.,;:!?)\]]`,
        String.raw`(?<![\w@.-])(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+(?:(?:com|net|org|gov|edu|asn|id)\.au|(?:com|net|org|info|biz|io|co|app|ai|xyz)(?:\.(?:nz|uk))?|au|nz|uk)(?![\w-]|\.[a-zA-Z0-9])(?:\/[^\s<>"']*[^\s<>"'.,;:!?)\]])?`,
      ].join('|'),
    ),
  },
  {
    id: 'social-handle',
    category: 'contact-details',
    reason: 'Contains a social media handle',
    pattern: /(?<![\w.+-])@[A-Za-z_]\w{1,29}\b/,
  },
];

/** Disclosure rules first, then contact details: the order flags are listed in. */
export const MODERATION_RULES: readonly ModerationRule[] = [...DISCLOSURE_RULES, ...CONTACT_DETAILS_RULES];
