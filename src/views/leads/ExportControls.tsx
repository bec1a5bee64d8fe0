import { memo } from 'react';
import { useSnapshot } from 'valtio';
import { bookType, type BookType } from '../../api/leads/contract';
import { useLeadExtras } from '../../api/leads/hooks';
import { CommandButton } from '../../commands/CommandButton';
import { useT } from '../../i18n/provider';
import { FreeEntryCombo } from './FreeEntryCombo';
import { leadView } from './store';

/**
 * File name, format and buyer of the next extraction, and the link of the last one. Memoised: it
 * follows its own store and queries, not the tab's renders as the rows come and the selection
 * moves, which rendered its buyer's combo box again each time.
 */
export const ExportControls = memo(function ExportControls({ landingIds }: { landingIds: readonly number[] }) {
  const t = useT();
  const view = useSnapshot(leadView);
  const extras = useLeadExtras(landingIds);
  return (
    <div className="leads-bar leads-export" data-leads-export="">
      <label className="field field-compact">
        <span className="visually-hidden">{t('leads.filename')}</span>
        <input type="text" value={view.filename} maxLength={120} placeholder={t('leads.filename')} onChange={(e) => (leadView.filename = e.target.value)} />
      </label>
      <label className="field field-compact">
        <span>{t('leads.format')}</span>
        <select value={view.bookType} onChange={(e) => (leadView.bookType = e.target.value as BookType)}>
          {bookType.options.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <FreeEntryCombo
        label={t('leads.soldTo')}
        placeholder={t('leads.soldTo.placeholder')}
        showLabel={t('leads.soldTo.show')}
        emptyLabel={t('leads.soldTo.none')}
        value={view.buyer}
        onChange={(v) => (leadView.buyer = v)}
        suggestions={extras.data?.forCustomer ?? []}
      />
      <label className="field field-compact">
        <span>{t('leads.price')}</span>
        <input
          type="text"
          inputMode="decimal"
          size={9}
          value={view.price}
          placeholder={t('leads.price.placeholder')}
          onChange={(e) => (leadView.price = e.target.value)}
        />
      </label>
      {view.link ? (
        <div className="leads-link">
          <a href={view.link.url} download={view.link.filename}>
            {t('leads.download', { filename: view.link.filename })}
          </a>
          <CommandButton command="leads.copyLink">{view.copied ? t('leads.copied') : t('leads.copyLink')}</CommandButton>
        </div>
      ) : null}
    </div>
  );
});
