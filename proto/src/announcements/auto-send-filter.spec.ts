import { STANDARD_AUTO_SEND_FILTER } from '../stocks/rules';
import { autoSendFilterProblem, matchesAutoSendFilter } from './auto-send-filter';

/** `^(\w+\s?)*$` backtracks exponentially in a RegExp on a long headline that does not match to the end. */
const CATASTROPHIC = '^(\\w+\\s?)*$';
const longHeadline = (end: string) => `${'Quarterly Activities Report '.repeat(400).slice(0, 9_999)}${end}`;

describe('auto-send filter', () => {
  it('matches the standard filter case-insensitively, anywhere in the headline, also across a non-breaking space', () => {
    expect(
      matchesAutoSendFilter('Appendix 3B - Proposed issue of securities', STANDARD_AUTO_SEND_FILTER),
    ).toBe(true);
    expect(matchesAutoSendFilter('Change of director: APPENDIX3Y', STANDARD_AUTO_SEND_FILTER)).toBe(true);
    expect(matchesAutoSendFilter('Appendix\u00a03B', STANDARD_AUTO_SEND_FILTER)).toBe(true);
    expect(matchesAutoSendFilter('Quarterly Activities Report', STANDARD_AUTO_SEND_FILTER)).toBe(false);
    expect(matchesAutoSendFilter('Appendix 3B', '')).toBe(false);
    expect(matchesAutoSendFilter('Appendix 3B', '  ')).toBe(false);
  });

  it('takes the catastrophic pattern and answers for a 10,000-character headline (linear-time engine)', () => {
    expect(autoSendFilterProblem(CATASTROPHIC)).toBeNull();
    // Without a linear-time engine the first of these never returns (and jest reports the timeout).
    expect(matchesAutoSendFilter(longHeadline('!'), CATASTROPHIC)).toBe(false);
    expect(matchesAutoSendFilter(longHeadline('x'), CATASTROPHIC)).toBe(true);
  });

  it('names the problem of a pattern it cannot take, and caps the length', () => {
    expect(autoSendFilterProblem('')).toBeNull();
    expect(autoSendFilterProblem(STANDARD_AUTO_SEND_FILTER)).toBeNull();
    expect(autoSendFilterProblem('a'.repeat(200))).toBeNull();
    expect(autoSendFilterProblem('a'.repeat(201))).toBe('The auto-send filter is longer than 200 characters');
    expect(autoSendFilterProblem('appendix (3b')).toBe(
      'The auto-send filter is not a valid pattern: missing closing ): `appendix (3b`',
    );
    expect(autoSendFilterProblem('(?<=x)3b')).toMatch(/^The auto-send filter is not a valid pattern: /);
    expect(autoSendFilterProblem('(?!x)3b')).toBe(
      'The auto-send filter is not a valid pattern: invalid or unsupported Perl syntax: `(?!`',
    );
    expect(autoSendFilterProblem('(a)\\1')).toBe(
      'The auto-send filter is not a valid pattern: invalid escape sequence: `\\1`',
    );
    // Nested counted repeats would make a huge program: RE2 refuses them instead of compiling.
    expect(autoSendFilterProblem('((a{100}){100}){100}')).toBe(
      'The auto-send filter is not a valid pattern: invalid repeat count: `{100}`',
    );
    for (const filter of ['[abc', '*dividend', 'a{2,1}', '(?<x>a)(?<x>b)'])
      expect(autoSendFilterProblem(filter)).toMatch(/^The auto-send filter is not a valid pattern: \S/);
  });

  it('holds every headline back for a stored filter it cannot take (saved before this check)', () => {
    expect(matchesAutoSendFilter('Quarterly Activities Report', '(?=Q)Quarterly')).toBe(true);
    expect(matchesAutoSendFilter('Quarterly Activities Report', 'x'.repeat(201))).toBe(true);
  });
});
