import {
  Column,
  CreateDateColumn,
  Entity,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { StockRoleEntity } from './stock-role.entity';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Unique case-insensitively (index on lower(username)). */
  @Column({ type: 'text' })
  username!: string;

  /** argon2id PHC string. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  /** The password is one someone else set: the next sign-in must choose a new one first (issue 34). */
  @Column({ name: 'must_change_password', type: 'boolean', default: false })
  mustChangePassword!: boolean;

  /** A passkey or a confirmed authenticator app (issue 34; kept by SecondFactorsRepository). */
  @Column({ name: 'has_second_factor', type: 'boolean', default: false })
  hasSecondFactor!: boolean;

  /** Global roles (spec section 6). */
  @Column({ type: 'text', array: true, default: () => `'{}'` })
  roles!: string[];

  @OneToMany(() => StockRoleEntity, (s) => s.user, { cascade: true })
  stockRoles!: StockRoleEntity[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
