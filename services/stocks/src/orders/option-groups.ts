import {
  Actor,
  ARCHIVED_OPTION_GROUP_EDIT_MESSAGE,
  cleanOptionGroup,
  DEFAULT_OPTION_GROUP_ARCHIVE_MESSAGE,
  duplicateOptionGroupNameMessage,
  ErrorCode,
  NO_DEFAULT_OPTION_GROUP_MESSAGE,
  OPTION_GROUP_ARCHIVED_MESSAGE,
  optionGroupNotFoundMessage,
  optionGroupProblems,
  RequestOf,
  ServiceOption,
  ServiceOptionGroup,
  Topics,
  unknownOptionGroupMessage,
} from '@irp/proto';
import { AppError, createLogger, Tx, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { requireAdmin } from '../stocks/stock-rules';
import { ServiceOrdersRepository } from './service-orders.repository';
import { centsOf, foreignOptionProblems, toServiceOption, toServiceOptionGroup } from './service-order-rules';

const log = createLogger('option-groups');

export type OptionGroupInput = RequestOf<typeof Topics.StocksSaveOptionGroup>['group'];

/**
 * Option groups (docs/api/stocks.md, "Option groups"): what the public order form offers, and the staff
 * actions on the Orders screen (Admin only): create and edit a group, make one the default (what
 * /new-order shows), archive or restore one. Every write holds the groups' lock, so the one-default and
 * unique-name rules hold under concurrent staff.
 */
@Injectable()
export class ServiceOptionGroups {
  constructor(
    private readonly orders: ServiceOrdersRepository,
    private readonly units: UnitOfWork,
  ) {}

  /**
   * The options the order form offers: an empty group id gives the default group's (/new-order). An
   * unknown group is NOT_FOUND saying so; an archived one NOT_FOUND saying it is no longer offered: a stale
   * or mistyped /new-order/{id} never offers another group's prices.
   */
  async offered(groupId: string): Promise<ServiceOption[]> {
    const named = groupId.trim();
    const group = named ? await this.orders.group(named) : await this.orders.defaultGroup();
    if (!group)
      throw new AppError(
        ErrorCode.NotFound,
        named ? unknownOptionGroupMessage(named) : NO_DEFAULT_OPTION_GROUP_MESSAGE,
      );
    if (group.archivedAt) throw new AppError(ErrorCode.NotFound, OPTION_GROUP_ARCHIVED_MESSAGE);
    return (await this.orders.optionsOf(group.id)).map(toServiceOption);
  }

  async list(actor: Actor): Promise<ServiceOptionGroup[]> {
    requireAdmin(actor, 'manage the option groups');
    const groups = await this.orders.groups();
    const options = await this.orders.optionsOfGroups(groups.map((g) => g.id));
    return groups.map((g) =>
      toServiceOptionGroup(
        g,
        options.filter((o) => o.groupId === g.id),
      ),
    );
  }

  /**
   * Creates a group (no id) or replaces an active group's name and options. The rules are proto's
   * (checked by the gateway, again here); options sent with an id must be this group's own. The first
   * group made while none is the default becomes the default.
   */
  async save(actor: Actor, input: OptionGroupInput): Promise<ServiceOptionGroup> {
    requireAdmin(actor, 'manage the option groups');
    const problems = optionGroupProblems(input);
    if (problems.length) throw new AppError(ErrorCode.BadRequest, problems.join('; '));
    const draft = cleanOptionGroup(input);
    return this.units.run(async (tx) => {
      await this.orders.lockGroups(tx);
      const id = draft.id?.trim() || null;
      if (id) {
        const existing = await this.orders.group(id, tx);
        if (!existing) throw new AppError(ErrorCode.NotFound, optionGroupNotFoundMessage(id));
        if (existing.archivedAt) throw new AppError(ErrorCode.Conflict, ARCHIVED_OPTION_GROUP_EDIT_MESSAGE);
      }
      const own = id ? (await this.orders.optionsOf(id, tx)).map((o) => o.id) : [];
      const foreign = foreignOptionProblems(draft.options, own);
      if (foreign.length) throw new AppError(ErrorCode.BadRequest, foreign.join('; '));
      if (await this.orders.activeGroupNamed(draft.name, id, tx))
        throw new AppError(ErrorCode.Conflict, duplicateOptionGroupNameMessage(draft.name));
      let groupId = id;
      if (groupId) await this.orders.updateGroup(tx, groupId, { name: draft.name });
      else
        groupId = await this.orders.insertGroup(tx, {
          name: draft.name,
          isDefault: !(await this.orders.defaultGroup(tx)),
        });
      await this.orders.replaceOptions(
        tx,
        groupId,
        draft.options.map((o) => ({
          id: o.id ?? null,
          name: o.name,
          priceCents: centsOf(o.price),
          lineItems: [...o.lineItems],
          isDefault: o.isDefault,
        })),
      );
      log.info(
        { groupId, created: !id, options: draft.options.length, by: actor.username },
        'option group saved',
      );
      return this.read(groupId, tx);
    });
  }

  /** Makes an active group the default (what /new-order shows); the previous default stops being it. */
  async setDefault(actor: Actor, id: string): Promise<ServiceOptionGroup> {
    requireAdmin(actor, 'manage the option groups');
    return this.units.run(async (tx) => {
      await this.orders.lockGroups(tx);
      const group = await this.orders.group(id, tx);
      if (!group) throw new AppError(ErrorCode.NotFound, optionGroupNotFoundMessage(id));
      if (group.archivedAt) throw new AppError(ErrorCode.Conflict, ARCHIVED_OPTION_GROUP_EDIT_MESSAGE);
      await this.orders.setDefaultGroup(tx, id);
      log.info({ groupId: id, by: actor.username }, 'default option group set');
      return this.read(id, tx);
    });
  }

  /**
   * Archives a group (its order form is no longer offered; orders placed with its options keep their
   * copy) or restores it. The default group is not archived: another is made the default first.
   */
  async archive(actor: Actor, id: string, archived: boolean): Promise<ServiceOptionGroup> {
    requireAdmin(actor, 'manage the option groups');
    return this.units.run(async (tx) => {
      await this.orders.lockGroups(tx);
      const group = await this.orders.group(id, tx);
      if (!group) throw new AppError(ErrorCode.NotFound, optionGroupNotFoundMessage(id));
      if (archived && group.isDefault)
        throw new AppError(ErrorCode.Conflict, DEFAULT_OPTION_GROUP_ARCHIVE_MESSAGE);
      if (!archived && group.archivedAt && (await this.orders.activeGroupNamed(group.name, id, tx)))
        throw new AppError(ErrorCode.Conflict, duplicateOptionGroupNameMessage(group.name));
      if (archived !== (group.archivedAt !== null)) {
        await this.orders.updateGroup(tx, id, { archivedAt: archived ? new Date() : null });
        log.info({ groupId: id, archived, by: actor.username }, 'option group archived');
      }
      return this.read(id, tx);
    });
  }

  private async read(id: string, tx: Tx): Promise<ServiceOptionGroup> {
    const group = await this.orders.group(id, tx);
    if (!group) throw new AppError(ErrorCode.NotFound, optionGroupNotFoundMessage(id));
    return toServiceOptionGroup(group, await this.orders.optionsOf(id, tx));
  }
}
