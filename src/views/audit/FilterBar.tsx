import { useSnapshot } from 'valtio';
import { useUsers } from '../../api/users/hooks';
import { useT } from '../../i18n/provider';
import { SingleSelect } from '../../ui/ChoiceSelect';
import { DateRange } from '../../ui/DateRange';
import { auditView } from './store';

/** Account, action, object and days (Paris time, both included). */
export function FilterBar() {
  const t = useT();
  const { filters, meta } = useSnapshot(auditView);
  const users = useUsers();
  const all = (id: string) => ({ id: '', name: t(id) });
  return (
    <div className="admin-bar" role="search" aria-label={t('audit.filters')} data-audit-filters="">
      <SingleSelect
        label={t('audit.filter.actor')}
        placeholder={t('audit.filter.anyActor')}
        items={[{ id: 0, name: t('audit.filter.anyActor') }, ...(users.data ?? []).map((u) => ({ id: u.id, name: u.name }))]}
        value={filters.actor ?? 0}
        onChange={(id) => (auditView.filters.actor = id ? Number(id) : null)}
        field="actor"
      />
      <SingleSelect
        label={t('audit.filter.action')}
        placeholder={t('audit.filter.anyAction')}
        items={[all('audit.filter.anyAction'), ...meta.actions.map((a) => ({ id: a, name: a }))]}
        value={filters.action}
        onChange={(v) => (auditView.filters.action = String(v ?? ''))}
        field="action"
      />
      <SingleSelect
        label={t('audit.filter.entity')}
        placeholder={t('audit.filter.anyEntity')}
        items={[all('audit.filter.anyEntity'), ...meta.entities.map((e) => ({ id: e, name: e }))]}
        value={filters.entity}
        onChange={(v) => (auditView.filters.entity = String(v ?? ''))}
        field="entity"
      />
      <DateRange
        labels={[t('audit.filter.from'), t('audit.filter.to')]}
        start={filters.start}
        end={filters.end}
        names={['audit-from', 'audit-to']}
        onChange={(start, end) => Object.assign(auditView.filters, { start, end })}
      />
    </div>
  );
}
