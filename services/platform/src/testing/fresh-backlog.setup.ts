// Before each integration test file: the services' consumer groups start at the end of every topic
// (backlog.ts). Registered by jest.preset.js's `integration` for every integration project.
import { skipServiceBacklogs } from './backlog';

// A ceiling for a loaded machine (60 s was hit on a fresh clone beside the other lanes), never a speed check.
beforeAll(() => skipServiceBacklogs().then(() => undefined), 300_000);
