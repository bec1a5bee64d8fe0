/**
 * The Taboola screen's commands: picking an account and a campaign (the URL keeps them), the
 * type, the file or the departments' codes, and the send; the palette lists the accounts.
 */
import { ApiError } from '../../api/client';
import { productionCategory, toDepartement, type ProductionCategory } from '../../api/productions/contract';
import { productionQuery } from '../../api/productions/queries';
import { queryClient } from '../../api/queryClient';
import { widensError, type Covered, type TaboolaAccount, type TargetingChange, type TargetingSummary } from '../../api/taboola/contract';
import { campaignLandingsQuery, taboolaAccountsQuery, taboolaKey, targetingQuery } from '../../api/taboola/queries';
import { coveredTargeting, departementCodes, sendTargeting, setCampaignLandings } from '../../api/taboola/requests';
import type { CommandContext, ContextWith } from '../../commands/context';
import { definePaletteSource } from '../../commands/palette/sources';
import { defineCommand, runCommand } from '../../commands/registry';
import { focusWhenShown } from '../../ui/focusWhenShown';
import { resetSend, taboolaView, type TaboolaCommandContext } from './store';
import { hrefOf } from '../../commands/screens';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'taboola.actions': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    taboola: TaboolaCommandContext;
  }
}

definePaletteSource<TaboolaAccount>({
  id: 'taboola',
  order: 60,
  requires: 'admin',
  // The accounts' list of the screen's own query (same cache entry), without the sandbox flag.
  query: { queryKey: [...taboolaKey, 'account-list'], queryFn: async () => (await queryClient.fetchQuery(taboolaAccountsQuery)).data },
  entries: (accounts) =>
    accounts.map((a) => ({ key: a.account_id, label: a.name, hint: a.account_id, command: 'taboola.pickAccount', args: { accountId: a.account_id } })),
});

const section = 'taboola';
const scope = 'taboola';
type OnView = ContextWith<'taboola'>;
type OnAccount = OnView & { taboola: { accountId: string } };
type OnCampaign = OnAccount & { taboola: { campaignId: string } };
const onView = (ctx: CommandContext): ctx is OnView => ctx.taboola !== undefined;
const onAccount = (ctx: CommandContext): ctx is OnAccount => onView(ctx) && ctx.taboola.accountId !== null;
// A campaign is always picked within an account (the page's query holds both).
// The form starts from the campaign's targeting: nothing is prepared or sent before it is read.
const onCampaign = (ctx: CommandContext): ctx is OnCampaign => onAccount(ctx) && ctx.taboola.campaignId !== null && ctx.taboola.targeting !== null;

// The palette's Taboola accounts and the account select run this, from any screen.
defineCommand<{ accountId: string }>({
  id: 'taboola.pickAccount',
  title: 'taboola.pickAccount',
  section,
  requires: 'admin',
  palette: false,
  run: (ctx, args) => ctx.navigate(hrefOf('taboola', {}, { account: args.accountId })),
});

defineCommand({
  id: 'taboola.chooseAccount',
  title: 'taboola.pickAccount',
  section,
  scope,
  keys: ['a'],
  requires: 'admin',
  when: onView,
  run: () => focusWhenShown('[data-field=account] button'),
});

defineCommand<{ campaignId?: string } | undefined, OnAccount>({
  id: 'taboola.pickCampaign',
  title: 'taboola.pickCampaign',
  section,
  scope,
  keys: ['c'],
  requires: 'admin',
  when: onAccount,
  choices: (ctx) =>
    (ctx.taboola?.campaigns ?? []).map((c) => ({ label: ctx.t('taboola.pickCampaign.choice', { name: c.name }), hint: c.id, args: { campaignId: c.id } })),
  run: (ctx, args) => {
    if (!args?.campaignId) return focusWhenShown('[data-field=campaign] button');
    ctx.navigate(hrefOf('taboola', {}, { account: ctx.taboola.accountId, campaign: args.campaignId }));
  },
});

defineCommand<{ type: 'ALL' | 'INCLUDE' }, OnCampaign>({
  id: 'taboola.setType',
  title: 'taboola.type',
  section,
  scope,
  requires: 'admin',
  when: onCampaign,
  choices: (ctx) =>
    (['ALL', 'INCLUDE'] as const).map((type) => ({ label: ctx.t('taboola.setType.choice', { type: ctx.t(`taboola.type.${type}`) }), args: { type } })),
  run: (_ctx, args) => {
    taboolaView.type = args.type;
  },
});

defineCommand({
  id: 'taboola.chooseFile',
  title: 'taboola.chooseFile',
  section,
  scope,
  keys: ['o'],
  requires: 'admin',
  when: onCampaign,
  run: () => {
    taboolaView.type = 'INCLUDE';
    requestAnimationFrame(() => document.querySelector<HTMLInputElement>('[data-taboola-file]')?.click());
  },
});

/** '30, 34, 2a' → ['30', '34', '2A']. */
const parseDepartements = (text: string) => [
  ...new Set(
    text
      .toUpperCase()
      .split(/[\s,;]+/)
      .filter(Boolean),
  ),
];

/** Fills the list to send with every postal code of these departments. */
async function targetDepartements(ctx: CommandContext, departements: readonly string[]) {
  taboolaView.type = 'INCLUDE';
  const res = await departementCodes(departements);
  taboolaView.departements = departements.join(', ');
  taboolaView.codes = res.codes;
  taboolaView.file = null;
  taboolaView.unknown = [];
  ctx.toast.info(ctx.t('taboola.toast.departements', { count: res.codes.length, departements: departements.join(', ') }));
}

defineCommand({
  id: 'taboola.departements',
  title: 'taboola.departements.run',
  section,
  scope,
  keys: ['d'],
  requires: 'admin',
  when: onCampaign,
  run: async (ctx) => {
    const departements = parseDepartements(taboolaView.departements);
    if (departements.length === 0) {
      taboolaView.type = 'INCLUDE';
      return focusWhenShown('[data-taboola-departements]');
    }
    await targetDepartements(ctx, departements);
  },
});

// The departments selected on a production map (saved per category), as the list to send.
defineCommand<{ category: ProductionCategory }, OnCampaign>({
  id: 'taboola.fromMap',
  title: 'taboola.fromMap',
  section,
  scope,
  requires: 'admin',
  when: onCampaign,
  choices: (ctx) =>
    productionCategory.options.map((category) => ({
      label: ctx.t('taboola.fromMap.choice', { map: ctx.t(`shell.screen.production.${category}`) }),
      args: { category },
    })),
  run: async (ctx, args) => {
    const { selected } = await queryClient.fetchQuery(productionQuery(args.category));
    if (selected.length === 0) return ctx.toast.warning(ctx.t('taboola.fromMap.empty', { map: ctx.t(`shell.screen.production.${args.category}`) }));
    await targetDepartements(ctx, selected.map(toDepartement));
  },
});

type Widening = TargetingChange;

/**
 * Sends the form. A send the user has not confirmed that widens the campaign is refused by the
 * server, which names the targeting before and after: the widening is answered instead.
 */
async function send(ctx: CommandContext, widen: boolean): Promise<Widening | null> {
  const { accountId, campaignId } = ctx.taboola!;
  const v = taboolaView;
  // docs/product.md §5: INCLUDE needs a file (or here the departments' codes); anything else is 'Erreur'.
  if (v.type === 'INCLUDE' && !v.file && v.codes.length === 0) {
    ctx.toast.error(ctx.t('taboola.error.noCodes'));
    return null;
  }
  v.sending = true;
  v.unknown = [];
  try {
    const res = await sendTargeting(
      accountId!,
      campaignId!,
      v.type === 'ALL' ? { type: 'ALL' } : v.file ? { type: 'INCLUDE', file: v.file } : { type: 'INCLUDE', codes: v.codes },
      { widen },
    );
    // The list as Taboola holds it after the send replaced it, and the form starting from it.
    queryClient.setQueryData(targetingQuery(accountId!, campaignId!).queryKey, { data: res.data, sandbox: res.sandbox });
    ctx.toast.success(ctx.t('taboola.toast.sent'));
    resetSend(res.data);
    const input = document.querySelector<HTMLInputElement>('[data-taboola-file]');
    if (input) input.value = '';
    return null;
  } catch (error) {
    const widening = error instanceof ApiError && error.status === 409 ? widensError.safeParse(error.body) : null;
    if (widening?.success) return widening.data.widens;
    if (error instanceof ApiError && Array.isArray(error.body?.unknown)) {
      v.unknown = error.body.unknown as string[];
      throw new Error(ctx.t('taboola.unknown', { count: v.unknown.length }));
    }
    throw new Error(error instanceof ApiError && error.message ? error.message : ctx.t('taboola.error.send'));
  } finally {
    v.sending = false;
  }
}

defineCommand({
  id: 'taboola.send',
  title: 'taboola.send',
  section,
  scope,
  keys: ['s'],
  requires: 'admin',
  menus: [{ id: 'taboola.actions', group: 'send', order: 2, tone: 'primary' }],
  when: (ctx): ctx is OnCampaign => onCampaign(ctx) && !taboolaView.sending,
  run: async (ctx) => {
    const widening = await send(ctx, false);
    if (widening) await runCommand('taboola.sendWidening', widening);
  },
});

const summaryText = (ctx: CommandContext, s: TargetingSummary) => ctx.t(`taboola.widen.${s.type}`, { count: s.count });

/** A change as the confirmations name it: before, after, the codes added and removed and their departments. */
function changeValues(ctx: CommandContext, c: TargetingChange) {
  const inDepartements = (list: string[]) => (list.length ? ctx.t('taboola.change.in', { list: list.join(', ') }) : '');
  return {
    before: summaryText(ctx, c.before),
    after: summaryText(ctx, c.after),
    change: ctx.t('taboola.change.codes', {
      added: c.added,
      addedIn: inDepartements(c.departements.added),
      removed: c.removed,
      removedIn: inDepartements(c.departements.removed),
    }),
  };
}

// The send of a targeting that reaches more postal codes than today (ALL, or new codes): only
// once the user has read the targeting before and after, and confirmed.
defineCommand<Widening>({
  id: 'taboola.sendWidening',
  title: 'taboola.sendWidening',
  section,
  scope,
  requires: 'admin',
  palette: false,
  when: (ctx) => onCampaign(ctx) && !taboolaView.sending,
  confirm: {
    title: 'taboola.widen.title',
    message: 'taboola.widen.message',
    ok: 'taboola.widen.ok',
    values: (ctx, w) => changeValues(ctx, w),
  },
  run: async (ctx) => {
    await send(ctx, true);
  },
});

// The campaign's landings (an admin setting): where 'Cibler les zones couvertes' looks for buyers.
defineCommand<{ landings: number[] }, OnCampaign>({
  id: 'taboola.linkLandings',
  title: 'taboola.linkLandings',
  section,
  scope,
  keys: ['l'],
  requires: 'admin',
  when: onCampaign,
  run: async (ctx, args) => {
    if (!args?.landings) return focusWhenShown('[data-field=campaign-landings] button');
    const { accountId, campaignId } = ctx.taboola;
    const data = await setCampaignLandings(accountId, campaignId, args.landings);
    queryClient.setQueryData(campaignLandingsQuery(accountId, campaignId).queryKey, data);
    ctx.toast.success(ctx.t('taboola.toast.linked'));
  },
});

// 'Cibler les zones couvertes': the postal codes of the departments open now for the campaign's
// landings become the list to send, shown with their change; sent only once confirmed.
defineCommand({
  id: 'taboola.covered',
  title: 'taboola.covered',
  section,
  scope,
  keys: ['z'],
  requires: 'admin',
  menus: [{ id: 'taboola.actions', group: 'send', order: 1 }],
  when: (ctx): ctx is OnCampaign => onCampaign(ctx) && ctx.taboola.landings.length > 0 && !taboolaView.sending,
  run: async (ctx) => {
    const { accountId, campaignId } = ctx.taboola!;
    const covered = await coveredTargeting(accountId!, campaignId!);
    if (covered.codes.length === 0) return ctx.toast.warning(ctx.t('taboola.covered.empty'));
    taboolaView.type = 'INCLUDE';
    taboolaView.file = null;
    taboolaView.unknown = [];
    taboolaView.departements = covered.departements.join(', ');
    taboolaView.codes = covered.codes;
    await runCommand('taboola.sendCovered', covered);
  },
});

// Always asked, widening or not: the list comes from the rules, not from the user's hand.
defineCommand<Covered>({
  id: 'taboola.sendCovered',
  title: 'taboola.covered',
  section,
  scope,
  requires: 'admin',
  palette: false,
  when: (ctx) => onCampaign(ctx) && !taboolaView.sending,
  confirm: {
    title: 'taboola.covered.title',
    message: 'taboola.covered.message',
    ok: 'taboola.covered.ok',
    values: (ctx, c) => ({ ...changeValues(ctx, c.change), departements: c.departements.length }),
  },
  run: async (ctx) => {
    await send(ctx, true);
  },
});

defineCommand({
  id: 'taboola.reload',
  title: 'taboola.reload',
  section,
  scope,
  keys: ['r'],
  requires: 'admin',
  menus: [{ id: 'taboola.actions', group: 'codes', order: 3 }],
  when: onCampaign,
  run: async (ctx) => {
    const { queryKey } = targetingQuery(ctx.taboola.accountId, ctx.taboola.campaignId);
    await queryClient.invalidateQueries({ queryKey });
    // The form starts again from what was read.
    resetSend(queryClient.getQueryData(queryKey)?.data ?? null);
  },
});
