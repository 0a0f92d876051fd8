import { createAsyncThunk, createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUserDto } from '@irp/proto';
import { errorMessageOf } from '@/lib/apiError';
import { sessionApi } from './sessionApi';

export interface SessionState {
  user: SessionUserDto | null;
  /** 'idle' before the start-up refresh, 'restoring' while it runs, 'settled' once it answered. */
  restore: 'idle' | 'restoring' | 'settled';
  /**
   * Why the session the browser held has ended, as the server said it (a staff session idle for 30 minutes
   * or 12 hours old, a reused refresh token), shown on /login; null when there was none to end.
   */
  endedReason: string | null;
}

const initialState: SessionState = { user: null, restore: 'idle', endedReason: null };

/** The refresh's answer when nobody was signed in: no session ended, nothing to explain. */
const NOT_SIGNED_IN = 'Not signed in';

/**
 * Start-up: ask GET /api/admin/refreshtoken once; a user means the cookies still hold a session.
 * Any failure (401, network) means signed out; a 401 saying why a session ended keeps the reason.
 */
export const restoreSession = createAsyncThunk<
  { user: SessionUserDto | null; endedReason: string | null },
  void,
  { state: { session: SessionState } }
>(
  'session/restore',
  async (_, { dispatch }) => {
    const request = dispatch(sessionApi.endpoints.refreshToken.initiate());
    try {
      return { user: await request.unwrap(), endedReason: null };
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      const reason = status === 401 ? errorMessageOf(err) : '';
      return { user: null, endedReason: reason && reason !== NOT_SIGNED_IN ? reason : null };
    } finally {
      request.reset();
    }
  },
  // StrictMode runs effects twice in development; the refresh must still happen once.
  { condition: (_, { getState }) => getState().session.restore === 'idle' },
);

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    sessionStarted(state, action: PayloadAction<SessionUserDto>) {
      state.user = action.payload;
    },
    sessionEnded(state) {
      state.user = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(restoreSession.pending, (state) => {
        state.restore = 'restoring';
      })
      .addCase(restoreSession.fulfilled, (state, action) => {
        state.user = action.payload.user;
        state.endedReason = action.payload.endedReason;
        state.restore = 'settled';
      })
      .addCase(restoreSession.rejected, (state) => {
        state.restore = 'settled';
      })
      .addMatcher(
        isAnyOf(
          sessionApi.endpoints.login.matchFulfilled,
          sessionApi.endpoints.signInPasskey.matchFulfilled,
          sessionApi.endpoints.signInCode.matchFulfilled,
        ),
        (state, action) => {
          state.user = action.payload;
          state.endedReason = null;
        },
      );
  },
  selectors: {
    selectSessionUser: (state) => state.user,
    selectIsSignedIn: (state) => state.user !== null,
    selectSessionSettled: (state) => state.restore === 'settled',
    selectSessionEndedReason: (state) => state.endedReason,
  },
});

export const { sessionStarted, sessionEnded } = sessionSlice.actions;
export const { selectSessionUser, selectIsSignedIn, selectSessionSettled, selectSessionEndedReason } =
  sessionSlice.selectors;
