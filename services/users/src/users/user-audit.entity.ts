import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One change of a user (issue 21's audit trail): who made it, what changed, when. Never a password. */
@Entity({ name: 'user_audit' })
export class UserAuditEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date;

  /** Null when no signed-in user made the change (the demo seed). */
  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId!: string | null;

  @Column({ name: 'actor_username', type: 'text' })
  actorUsername!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  /** Null when the change created the user. */
  @Column({ name: 'username_before', type: 'text', nullable: true })
  usernameBefore!: string | null;

  @Column({ name: 'username_after', type: 'text' })
  usernameAfter!: string;

  @Column({ name: 'roles_before', type: 'text', array: true })
  rolesBefore!: string[];

  @Column({ name: 'roles_after', type: 'text', array: true })
  rolesAfter!: string[];

  @Column({ name: 'stock_roles_before', type: 'jsonb' })
  stockRolesBefore!: Record<string, string[]>;

  @Column({ name: 'stock_roles_after', type: 'jsonb' })
  stockRolesAfter!: Record<string, string[]>;

  @Column({ name: 'password_changed', type: 'boolean' })
  passwordChanged!: boolean;
}
