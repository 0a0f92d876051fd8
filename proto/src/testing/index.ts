/**
 * `@irp/proto/testing`: fixtures for tests only (dependency-cruiser's `proto-testing-only-in-tests`). Not
 * exported from proto's index, so production code and the web bundle never carry them.
 */
export * from './fixtures';
