import { useEffect, useRef } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Link } from 'react-router';
import { useSnapshot } from 'valtio';
import type { RoutingCandidate, RoutingResponse } from '../../api/rules/contract';
import { routingQuery } from '../../api/rules/queries';
import { useSignedInQuery } from '../../api/signedIn';
import { useIntl, useT } from '../../i18n/provider';
import { LeadSales } from './LeadSales';
import { leadView } from './store';
import { hrefOf } from '../../commands/screens';

type Routing = RoutingResponse['data'];

/** The sentence that answers the question: where the lead went (to whom, when shared), or why nowhere. */
function outcomeText(r: Routing, t: ReturnType<typeof useT>, intl: ReturnType<typeof useIntl>): string {
  if (r.outcome !== 'delivered') return t(`leads.routing.outcome.${r.outcome}`);
  if (r.buyers.length > 1)
    return t('leads.routing.outcome.shared', {
      customers: intl.formatList(
        r.buyers.map((b) => b.customer_name),
        { type: 'conjunction' },
      ),
    });
  const rule = r.considered.find((c) => c.reason === null);
  return t('leads.routing.outcome.delivered', { customer: r.customer_name ?? '', rule: rule?.rule_name ?? '' });
}

/** '2026-03-29 02:30 sunday' (the engine's Paris wall clock) as 'dimanche 29 mars 2026 à 02:30' in the user's language. */
function parisTimeText(parisTime: string, intl: ReturnType<typeof useIntl>): string {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})/.exec(parisTime);
  if (!m) return parisTime;
  const day = intl.formatDate(`${m[1]}T12:00:00Z`, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return `${day} ${m[2]}`;
}

const windowOf = { cap_hour: 'hour', cap_week: 'week', cap_month: 'month' } as const;

/** Why a rule was passed over, with what decided it: the full window's count, the filter the lead failed. */
function reasonText(c: RoutingCandidate, t: ReturnType<typeof useT>, intl: ReturnType<typeof useIntl>): string {
  const reason = t(`leads.routing.reason.${c.reason ?? 'chosen'}`);
  if (c.reason === 'filter' && c.filter) {
    const value = Array.isArray(c.filter.value) ? intl.formatList(c.filter.value.map(String)) : String(c.filter.value);
    return t('leads.routing.reason.filterOn', { column: c.filter.column, op: t(`rules.advanced.op.${c.filter.op}`), value });
  }
  const span = c.reason && c.reason in windowOf ? windowOf[c.reason as keyof typeof windowOf] : null;
  const fill = span ? c.windows?.[span] : undefined;
  if (fill && fill.cap !== null) return t('leads.routing.reason.capOf', { reason, count: intl.formatNumber(fill.count), cap: intl.formatNumber(fill.cap) });
  return reason;
}

function CandidateTable({ caption, rows, onLeave }: { caption: string; rows: readonly RoutingCandidate[]; onLeave: () => void }) {
  const t = useT();
  const intl = useIntl();
  return (
    <table className="table routing-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('leads.routing.rule')}</th>
          <th scope="col" className="num">
            {t('leads.routing.fill')}
          </th>
          <th scope="col">{t('leads.routing.reason')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.rule_id} className={c.reason === null ? 'routing-winner' : undefined}>
            <th scope="row">
              {c.deleted ? (
                t('leads.routing.deleted', { name: c.rule_name })
              ) : (
                <Link to={hrefOf('reports', { ruleId: c.rule_id })} onClick={onLeave}>
                  {c.rule_name}
                </Link>
              )}
              {/* The customer under its rule: three columns fit a phone. */}
              <span className="routing-customer">
                {c.priority === undefined ? c.customer_name : `${c.customer_name} · ${t('leads.routing.priority', { priority: c.priority })}`}
              </span>
            </th>
            <td className="num">{t('leads.routing.fillValue', { count: intl.formatNumber(c.count), cap: intl.formatNumber(c.leads_number) })}</td>
            <td>{reasonText(c, t, intl)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * 'Pourquoi ce client ?': the engine's decision for one lead — the outcome in one sentence, then
 * each rule considered, in the order tried, with why it was passed over. Plain tables with
 * captions and row headers, so a screen reader reads each rule with its reason.
 */
export function RoutingDialog({ returnFocus }: { returnFocus: () => void }) {
  const { routing } = useSnapshot(leadView);
  // However it closes (its button, a click outside, Escape), the focus goes back to the lead's row,
  // not to the toolbar button or the context menu it was opened from (react-aria's restore would).
  const open = useRef(false);
  useEffect(() => {
    if (routing) open.current = true;
    else if (open.current) {
      open.current = false;
      returnFocus();
    }
  }, [routing, returnFocus]);
  return routing ? <RoutingDialogOf landing={routing.landing} lead={routing.lead} /> : null;
}

function RoutingDialogOf({ landing, lead }: { landing: number; lead: number }) {
  const t = useT();
  const intl = useIntl();
  const query = useSignedInQuery(routingQuery(landing, lead));
  const close = () => (leadView.routing = null);
  const r = query.data;
  const own = r?.considered.filter((c) => c.reason !== 'landing') ?? [];
  const others = r?.considered.filter((c) => c.reason === 'landing') ?? [];
  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && close()} isDismissable className="overlay">
      <Modal className="dialog dialog-wide">
        <Dialog className="dialog-body routing-dialog">
          <Heading slot="title" className="dialog-title">
            {t('leads.routing.title', { id: String(lead) })}
          </Heading>
          {query.isPending ? (
            <p role="status">{t('leads.routing.loading')}</p>
          ) : query.isError || !r ? (
            <p role="alert" className="routing-error">
              {t('leads.routing.error')}
            </p>
          ) : (
            <>
              <p className={`routing-outcome routing-${r.outcome}`}>{outcomeText(r, t, intl)}</p>
              {r.paris_time ? <p className="routing-when">{t('leads.routing.when', { time: parisTimeText(r.paris_time, intl) })}</p> : null}
              <LeadSales landing={landing} lead={lead} onLeave={close} />
              {own.length ? (
                <CandidateTable caption={t('leads.routing.own', { count: own.length })} rows={own} onLeave={close} />
              ) : (
                <p>{t('leads.routing.none')}</p>
              )}
              {others.length ? <CandidateTable caption={t('leads.routing.others', { count: others.length })} rows={others} onLeave={close} /> : null}
            </>
          )}
          <div className="dialog-actions">
            <Button className="btn btn-primary" autoFocus onPress={close}>
              {t('leads.routing.close')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
