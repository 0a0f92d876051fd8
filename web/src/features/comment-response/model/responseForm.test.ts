import { describe, expect, it } from 'vitest';
import { commentResponse } from '../test/fixtures';
import { formValuesOf, IDLE, responseBodyOf, submitReducer, type SubmitState } from './responseForm';

describe('the response form', () => {
  it('opens empty, or with the saved response and visibility', () => {
    expect(formValuesOf(commentResponse())).toEqual({ comment: '', isPublic: false });
    expect(
      formValuesOf(
        commentResponse({ isPublic: true, response: { comment: 'Hi', date: '2025-03-23T00:00:00.000Z' } }),
      ),
    ).toEqual({ comment: 'Hi', isPublic: true });
  });

  it('sends guid, comment and isPublic', () => {
    expect(responseBodyOf('g-1', { comment: 'Hi', isPublic: true })).toEqual({
      guid: 'g-1',
      comment: 'Hi',
      isPublic: true,
    });
  });
});

describe('the submit states (spec section 4: idle, submitting, success or error)', () => {
  const submitting: SubmitState = { status: 'submitting' };
  const failed: SubmitState = { status: 'error', errorMessage: 'No' };

  it('goes idle -> submitting -> success or error', () => {
    expect(submitReducer(IDLE, { type: 'submit' })).toEqual(submitting);
    expect(submitReducer(submitting, { type: 'succeeded' })).toEqual({ status: 'success' });
    expect(submitReducer(submitting, { type: 'failed', errorMessage: 'No' })).toEqual(failed);
  });

  it('submits again after an outcome, never twice at once', () => {
    expect(submitReducer(failed, { type: 'submit' })).toEqual(submitting);
    expect(submitReducer({ status: 'success' }, { type: 'submit' })).toEqual(submitting);
    expect(submitReducer(submitting, { type: 'submit' })).toBe(submitting);
  });

  it('forgets the outcome once the form is edited, and ignores outcomes it did not ask for', () => {
    expect(submitReducer(failed, { type: 'edited' })).toEqual(IDLE);
    expect(submitReducer({ status: 'success' }, { type: 'edited' })).toEqual(IDLE);
    expect(submitReducer(submitting, { type: 'edited' })).toBe(submitting);
    expect(submitReducer(IDLE, { type: 'succeeded' })).toBe(IDLE);
    expect(submitReducer(IDLE, { type: 'failed', errorMessage: 'x' })).toBe(IDLE);
  });
});
