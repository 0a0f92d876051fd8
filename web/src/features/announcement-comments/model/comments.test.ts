import { describe, expect, it } from 'vitest';
import { commentItem } from '../test/fixtures';
import { commentGroupsLabel, commentsPath, firstResponseOf, flagReasonsOf, responsePath } from './comments';

describe('comment groups', () => {
  it('counts comment groups in words', () => {
    expect(commentGroupsLabel(0)).toBe('0 comment groups');
    expect(commentGroupsLabel(1)).toBe('1 comment group');
    expect(commentGroupsLabel(3)).toBe('3 comment groups');
  });

  it("links a ticker's comments, one announcement's, and a comment's response page", () => {
    expect(commentsPath('BHP:ASX')).toBe('/AnnouncementComments/BHP:ASX');
    expect(commentsPath('BHP:ASX', 'g-1')).toBe('/AnnouncementComments/BHP:ASX/g-1');
    expect(responsePath({ announcementCommentEventGuid: 'c-1' })).toBe('/AnnouncementCommentResponse/c-1');
  });

  it('takes the first response, or none', () => {
    expect(firstResponseOf(commentItem())).toBeNull();
    const date = '2025-03-23T00:00:00.000Z';
    expect(
      firstResponseOf(
        commentItem({
          responses: [
            { comment: 'first', date },
            { comment: 'second', date },
          ],
        }),
      ),
    ).toBe('first');
  });

  it('lists each flag reason once', () => {
    const flag = { rule: 'r', category: 'disclosure', match: 'x' } as const;
    expect(
      flagReasonsOf(
        commentItem({
          flags: [
            { ...flag, reason: 'A' },
            { ...flag, reason: 'B', match: 'y' },
            { ...flag, reason: 'A', match: 'z' },
          ],
        }),
      ),
    ).toEqual(['A', 'B']);
  });
});
