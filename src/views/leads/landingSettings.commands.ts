/**
 * 'Réglages de la landing' (admin): where the landing's plain HTML form goes after its post, and
 * how many customers may buy one of its leads through non-exclusive rules (max_buyers). Opened
 * from the lead view of one landing (its action bar, the palette), saved by the dialog.
 */
import { ApiError } from '../../api/client';
import { landingsByIdsQuery } from '../../api/leads/queries';
import { allLandingsQuery, facebookLandingsQuery, landingsQuery } from '../../api/landings/queries';
import { updateLanding } from '../../api/landings/requests';
import { fetchNow, queryClient } from '../../api/queryClient';
import type { CommandContext, ContextWith } from '../../commands/context';
import { defineCommand } from '../../commands/registry';
import { checkLandingSettings, landingSettings, settingsDraft, settingsServerErrors } from './landingSettings';

const onOneLanding = (ctx: CommandContext): ctx is ContextWith<'leads'> => ctx.leads !== undefined && ctx.leads.landingIds.length === 1;

defineCommand({
  id: 'leads.landingSettings',
  title: 'leads.landingSettings',
  section: 'leads',
  scope: 'leads',
  menus: [{ id: 'leads.actions', group: 'landing', order: 9 }],
  requires: 'admin',
  when: onOneLanding,
  run: async (ctx) => {
    const [landing] = await fetchNow(landingsByIdsQuery(ctx.leads.landingIds));
    if (!landing) return;
    landingSettings.draft = settingsDraft(landing);
    landingSettings.errors = {};
    landingSettings.landing = landing;
  },
});

defineCommand({
  id: 'leads.saveLandingSettings',
  title: 'leads.saveLandingSettings',
  section: 'leads',
  scope: 'leads',
  requires: 'admin',
  when: () => landingSettings.landing !== null && !landingSettings.busy,
  run: async (ctx) => {
    const current = landingSettings.landing!;
    const { errors, payload } = checkLandingSettings(landingSettings.draft, current);
    landingSettings.errors = errors;
    if (!payload) return ctx.toast.warning(ctx.t('leads.landingSettings.invalid'));
    landingSettings.busy = true;
    try {
      if (Object.keys(payload).length) await updateLanding(current.id, payload);
      landingSettings.landing = null;
      ctx.toast.success(ctx.t('leads.landingSettings.saved'));
      await Promise.all(
        [['landing'], landingsQuery.queryKey, facebookLandingsQuery.queryKey, allLandingsQuery.queryKey].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        landingSettings.errors = settingsServerErrors((error.body?.errors ?? {}) as Record<string, string>);
        return ctx.toast.warning(ctx.t('leads.landingSettings.invalid'));
      }
      throw new Error(ctx.t('leads.landingSettings.error'), { cause: error });
    } finally {
      landingSettings.busy = false;
    }
  },
});
