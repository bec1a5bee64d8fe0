import { usePresence } from '../../api/events/hooks';
import { useT } from '../../i18n/provider';

/** Who else looks at this list (its landings and tab): their initials, their names for the tooltip and screen readers. */
export function Presence({ place }: { place: string }) {
  const t = useT();
  const users = usePresence(place);
  if (users.length === 0) return null;
  const label = t('leads.presence', { count: users.length, names: users.map((u) => u.name).join(', ') });
  return (
    <p className="leads-presence" title={label}>
      <span className="visually-hidden">{label}</span>
      {users.map((u) => (
        <span key={u.id} className="leads-presence-user" aria-hidden="true">
          {u.initials}
        </span>
      ))}
    </p>
  );
}
