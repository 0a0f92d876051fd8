// Before each integration test file: the services' consumer groups start at the end of every topic
// (backlog.ts). Registered by jest.preset.js's `integration` for every integration project.
import { skipServiceBacklogs } from './backlog';

beforeAll(() => skipServiceBacklogs().then(() => undefined), 60_000);
