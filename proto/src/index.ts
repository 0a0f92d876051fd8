export * from './envelope';
export * from './rest';
export * from './roles';
export * from './topics';
export * from './users';
export * from './stocks';
export * from './dates';
export * from './demo';
