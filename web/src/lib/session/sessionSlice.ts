import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUserDto } from '@irp/proto';
import { sessionApi } from './sessionApi';

export interface SessionState {
  user: SessionUserDto | null;
  /** 'idle' before the start-up refresh, 'restoring' while it runs, 'settled' once it answered. */
  restore: 'idle' | 'restoring' | 'settled';
}

const initialState: SessionState = { user: null, restore: 'idle' };

/**
 * Start-up: ask GET /api/admin/refreshtoken once; a user means the cookies still hold a session.
 * Any failure (401, network) means signed out.
 */
export const restoreSession = createAsyncThunk<
  SessionUserDto | null,
  void,
  { state: { session: SessionState } }
>(
  'session/restore',
  async (_, { dispatch }) => {
    const request = dispatch(sessionApi.endpoints.refreshToken.initiate());
    try {
      return await request.unwrap();
    } catch {
      return null;
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
        state.user = action.payload;
        state.restore = 'settled';
      })
      .addCase(restoreSession.rejected, (state) => {
        state.restore = 'settled';
      })
      .addMatcher(sessionApi.endpoints.login.matchFulfilled, (state, action) => {
        state.user = action.payload;
      });
  },
  selectors: {
    selectSessionUser: (state) => state.user,
    selectIsSignedIn: (state) => state.user !== null,
    selectSessionSettled: (state) => state.restore === 'settled',
  },
});

export const { sessionStarted, sessionEnded } = sessionSlice.actions;
export const { selectSessionUser, selectIsSignedIn, selectSessionSettled } = sessionSlice.selectors;
