// The stand-in kit: what every vendor stand-in is built on (standins/README.md).
export * from './faults';
export * from './http-standin';
export * from './run';
