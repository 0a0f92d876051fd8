import { Column, Entity, PrimaryColumn } from 'typeorm';

export interface StoredFieldChange {
  fieldName: string;
  originalValue: string | null;
  newValue: string | null;
}

/** One recorded change of a stock: who, when, and each field's old and new value as text. */
@Entity({ name: 'stock_versions' })
export class StockVersionEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ name: 'version_id', type: 'int' })
  versionId!: number;

  @Column({ name: 'changed_on', type: 'timestamptz', default: () => 'now()' })
  changedOn!: Date;

  @Column({ name: 'changed_by', type: 'text' })
  changedBy!: string;

  @Column({ type: 'jsonb' })
  changes!: StoredFieldChange[];
}
