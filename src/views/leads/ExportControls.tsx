import { ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Button } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { bookType, type BookType } from '../../api/contract/leads';
import { useLeadExtras } from '../../api/hooks/leads';
import { CommandButton } from '../../commands/CommandButton';
import { useT } from '../../i18n/provider';
import { leadView } from './store';

/** File name, format and buyer of the next extraction, and the link of the last one. */
export function ExportControls({ landingIds }: { landingIds: readonly number[] }) {
  const t = useT();
  const view = useSnapshot(leadView);
  const extras = useLeadExtras(landingIds);
  const buyers = (extras.data?.forCustomer ?? []).map((name) => ({ id: name, name }));
  return (
    <div className="leads-bar leads-export" data-leads-export="">
      <label className="leads-field">
        <span className="visually-hidden">{t('leads.filename')}</span>
        <input
          type="text"
          value={view.filename}
          maxLength={120}
          placeholder={t('leads.filename')}
          onChange={(e) => (leadView.filename = e.target.value)}
        />
      </label>
      <label className="leads-field">
        <span>{t('leads.format')}</span>
        <select value={view.bookType} onChange={(e) => (leadView.bookType = e.target.value as BookType)}>
          {bookType.options.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <ComboBox
        className="leads-field leads-combo"
        allowsCustomValue
        menuTrigger="focus"
        inputValue={view.buyer}
        onInputChange={(v) => (leadView.buyer = v)}
        defaultItems={buyers}
      >
        <Label>{t('leads.soldTo')}</Label>
        <div className="leads-combo-input">
          <Input placeholder={t('leads.soldTo.placeholder')} />
          <Button className="leads-combo-button" aria-label={t('leads.soldTo.show')}>
            ▾
          </Button>
        </div>
        <Popover className="popover">
          <ListBox className="menu-list" renderEmptyState={() => <div className="menu-item muted">{t('leads.soldTo.none')}</div>}>
            {(item: { id: string; name: string }) => (
              <ListBoxItem className="menu-item" id={item.id}>
                {item.name}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
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
}
