import type { ValueTransformer } from 'typeorm';

/**
 * bigint and numeric columns as JS numbers. The driver reads both as text (they can outgrow a double); the
 * figures this service keeps (volumes, hundredths of a cent times shares, dollar quotes) stay far below 2^53,
 * and the reports compute with them as numbers. Raw SQL that reads such a column casts it (`::float8`) so its
 * row is what the entity says.
 */
export const asNumber: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? value : Number(value)),
};
