import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One staged chunk of an uploaded PDF (claim check); assembled by the save, deleted after it or after an hour. */
@Entity({ name: 'upload_parts' })
export class UploadPartEntity {
  @PrimaryColumn({ name: 'upload_id', type: 'uuid' })
  uploadId!: string;

  @PrimaryColumn({ type: 'int' })
  index!: number;

  @Column({ type: 'bytea' })
  data!: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
