import { commentModerationMail, commentResponseMail, fillCommentTemplate } from './templates';

const stock = { ticker: 'ABC', exchange: 'ASX', companyName: 'Alpha & Co', companyLogoUrl: '' };

describe('comment mails', () => {
  describe("the moderators' mail", () => {
    const input = {
      stock,
      headline: 'Half <Year> Results',
      name: 'Pat "P" O\'Brien',
      email: 'pat@investor.example',
      comment: 'Is 1 < 2 & will you <script>alert(1)</script>?',
      flags: [],
      responseUrl: 'http://portal.example/AnnouncementCommentResponse/7d1f',
    };

    it('names the comment, the announcement and the response link, everything escaped', () => {
      const mail = commentModerationMail(input);
      expect(mail.subject).toBe('New comment on Alpha & Co (ABC): Half <Year> Results');
      expect(mail.html).not.toContain('<script');
      expect(mail.html).toContain('Is 1 &lt; 2 &amp; will you &lt;script&gt;alert(1)&lt;/script&gt;?');
      expect(mail.html).toContain('Half &lt;Year&gt; Results');
      expect(mail.html).toContain('href="http://portal.example/AnnouncementCommentResponse/7d1f"');
      expect(mail.text).toContain(input.comment);
      expect(mail.text).toContain(`Respond: ${input.responseUrl}`);
      expect(mail.text).not.toContain('Flagged');
    });

    it('a flagged comment is marked in the subject and lists each reason', () => {
      const mail = commentModerationMail({
        ...input,
        flags: [
          { reason: 'Asks about results before release', match: 'results <soon>' },
          { reason: 'Names another listed company: BHP Group (BHP)', match: 'BHP' },
        ],
      });
      expect(mail.subject.startsWith('[Flagged] New comment on')).toBe(true);
      expect(mail.text).toContain('- Asks about results before release ("results <soon>")');
      expect(mail.html).toContain('results &lt;soon&gt;');
      expect(mail.html).toContain('Names another listed company: BHP Group (BHP)');
    });
  });

  describe("the commenter's mail", () => {
    const input = {
      stock,
      template: 'Dear {name},\n\nThanks for asking about "{headline}".\n{unknown} stays.',
      headline: 'Half Year Results',
      name: 'Pat',
      response: 'On 20 March. <b>Not bold</b>',
    };

    it("fills the stock's template, then gives the response, escaped", () => {
      const mail = commentResponseMail(input);
      expect(mail.subject).toBe('Alpha & Co responded to your comment on Half Year Results');
      expect(mail.text).toContain(
        'Dear Pat,\n\nThanks for asking about "Half Year Results".\n{unknown} stays.',
      );
      expect(mail.text).not.toContain('Your question');
      expect(mail.text).toContain('Our response:\nOn 20 March. <b>Not bold</b>');
      expect(mail.html).toContain('On 20 March. &lt;b&gt;Not bold&lt;/b&gt;');
      expect(mail.html).not.toContain('<b>Not bold');
    });

    it('a template placing {response} itself decides where it goes', () => {
      const mail = commentResponseMail({
        ...input,
        template: 'Hi {name}: {response} -- {company} ({ticker})',
      });
      expect(mail.text.startsWith('Hi Pat: On 20 March. <b>Not bold</b> -- Alpha & Co (ABC)')).toBe(true);
      expect(mail.text).not.toContain('Your question');
    });

    it('quotes nothing the commenter typed but the name: the address was never confirmed', () => {
      const mail = commentResponseMail({
        ...input,
        template: 'Dear {name}: you asked "{comment}". {response}',
      });
      expect(mail.text.startsWith('Dear Pat: you asked "". On 20 March.')).toBe(true);
    });

    it('an empty template falls back to the default wording', () => {
      const mail = commentResponseMail({ ...input, template: '  ' });
      expect(mail.text).toContain('Dear Pat,');
      expect(mail.text).toContain('Alpha & Co responds below.');
    });
  });

  it('fillCommentTemplate leaves unknown fields as written', () => {
    expect(fillCommentTemplate('{name} {nope} {name}', { name: 'A' })).toBe('A {nope} A');
  });
});
