import type { Targeting, TargetingChange } from '../../../src/api/taboola/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { audit } from '../audit';
import { departementFor } from '../geo';
import type { TaboolaProvider } from './provider';

export interface TargetingSend {
  type: 'ALL' | 'INCLUDE';
  codes: string[];
}

/**
 * Whether a send reaches postal codes the campaign does not reach today: ALL after a list, or a
 * list holding a code the current INCLUDE lacks (or one the current EXCLUDE leaves out).
 */
export function widens(current: Targeting, next: TargetingSend): boolean {
  if (current.type === 'ALL') return false;
  if (next.type === 'ALL') return true;
  const held = new Set(current.codes);
  return current.type === 'INCLUDE' ? next.codes.some((c) => !held.has(c)) : next.codes.some((c) => held.has(c));
}

const summary = (t: Targeting | TargetingSend) => ({ type: t.type, count: t.codes.length });

const departementsOf = (codes: string[]) => [...new Set(codes.map(departementFor))].sort();

/** What a send changes: before and after, and from one list to another the codes added and removed with their departments. */
export function targetingChange(current: Targeting, next: TargetingSend): TargetingChange {
  const lists = current.type === 'INCLUDE' && next.type === 'INCLUDE';
  const held = new Set(current.codes);
  const sent = new Set(next.codes);
  const added = lists ? next.codes.filter((c) => !held.has(c)) : [];
  const removed = lists ? current.codes.filter((c) => !sent.has(c)) : [];
  return {
    before: summary(current),
    after: summary(next),
    added: added.length,
    removed: removed.length,
    departements: { added: departementsOf(added), removed: departementsOf(removed) },
  };
}

/**
 * Replaces a campaign's targeting and logs it. A send that widens the campaign's reach is refused
 * (409 `conflict` with `widens`: the targeting before and after) unless `widen` confirms it: one
 * keystroke turned a paid campaign of 83 codes into all of France.
 */
export async function sendTargeting(
  ctx: AppContext,
  taboola: TaboolaProvider,
  opts: { userId: number; accountId: string; campaignId: string; send: TargetingSend; widen: boolean },
): Promise<Targeting> {
  const { accountId, campaignId, send } = opts;
  if (!opts.widen) {
    const current = await taboola.targeting(accountId, campaignId);
    if (widens(current, send)) {
      throw new AppError(409, 'conflict', "Ce ciblage élargit la campagne : confirmez-le pour l'envoyer", {
        widens: targetingChange(current, send),
      });
    }
  }
  const data = await taboola.setTargeting(accountId, campaignId, send);
  await audit(ctx.db, {
    actorId: opts.userId,
    action: 'taboola.targeting',
    entity: 'postal_codes',
    count: send.codes.length,
    details: { account_id: accountId, campaign_id: campaignId, type: send.type, sandbox: taboola.sandbox },
  });
  return data;
}
