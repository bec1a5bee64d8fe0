import { useEffect, useRef, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Checkbox, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Tag, TagGroup, TagList } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useCustomers } from '../../api/customers/hooks';
import { useAllLandings } from '../../api/landings/hooks';
import { CommandMenu } from '../../commands/CommandMenu';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { LoadingChoices } from '../../ui/ChoiceSelect';
import { DayGroup } from './DayGroup';
import { RuleAdvanced } from './RuleAdvanced';
import { RuleSimulation } from './RuleSimulation';
import { addZip, LEADS_PER_DAY, normalizeHour, parseZip, spansMidnight, type RuleField } from './ruleForm';
import { formOf, type RuleFormState } from './store';

function FieldError({ form, field, id }: { form: RuleFormState; field: RuleField; id: string }) {
  const t = useT();
  const { errors, refusedZip } = useSnapshot(form);
  const error = errors[field];
  if (!error) return null;
  return (
    <span id={id} className="field-error">
      {t(error, { codes: refusedZip.join(', ') })}
    </span>
  );
}

interface Props {
  /**
   * 'create': the tab 'Créer une règle' (rules.create, the form `ruleForm`); 'edit': the dialog
   * 'Modifier la règle' (rules.save, the form `ruleEdit.form`).
   */
  mode: 'create' | 'edit';
  /** The edit's Annuler. */
  onCancel?: () => void;
}

/**
 * The rule form (docs/product.md §5): customer, name, landings, postal codes, days, hours, leads per day,
 * the 'Avancé' section (caps per window, priority, weight, exclusivity, filters), active. One form for creating a rule and for editing one.
 */
export function RuleForm({ mode, onCancel }: Props) {
  const t = useT();
  const { draft, errors } = useSnapshot(formOf(mode));
  // Changes go to the live form (valtio), read at the moment of each event.
  const live = () => formOf(mode);
  const customers = useCustomers();
  const landings = useAllLandings();
  const firstRef = useRef<HTMLButtonElement>(null);
  const creating = mode === 'create';
  // Field ids: the creation's are those the tests and the commands know ('rule-name'…).
  const id = (field: string) => (creating ? `rule-${field}` : `rule-edit-${field}`);
  useEffect(() => {
    if (!creating) return;
    const active = document.activeElement;
    if (!active || active === document.body || active.id === 'main') firstRef.current?.focus();
  }, [creating]);

  /** Clears a field's message as soon as the user changes it. */
  const touched = (field: RuleField) => {
    if (live().errors[field]) live().errors = { ...live().errors, [field]: undefined };
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void runCommand(creating ? 'rules.create' : 'rules.save', undefined, 'button');
  };
  // Enter in a text field sends the form, except in the postal codes field where it adds the codes typed (Escape: ListScreen).
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && (e.target as HTMLElement).matches('input:not([data-zip-input]):not([type=checkbox])')) submit(e);
  };

  const addTyped = () => {
    const { entries, invalid } = parseZip(live().draft.zipInput);
    live().draft.zip = addZip(live().draft.zip, entries);
    live().draft.zipInput = invalid.join(' ');
    live().refusedZip = invalid;
    live().errors = { ...live().errors, zip: invalid.length ? 'rules.form.error.zip' : undefined };
  };
  const onZipKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',' || e.key === ';') {
      e.preventDefault();
      addTyped();
    } else if (e.key === 'Backspace' && e.currentTarget.value === '' && live().draft.zip.length) {
      live().draft.zip = live().draft.zip.slice(0, -1);
    }
  };

  const invalid = (field: RuleField) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': id(`${field}-error`) } : {});
  const error = (field: RuleField) => <FieldError form={formOf(mode)} field={field} id={id(`${field}-error`)} />;
  const midnight = spansMidnight(draft.start, draft.end);

  return (
    <form className="form rule-form" onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-labelledby={creating ? 'rule-form-title' : 'rule-edit-title'}>
      {creating ? (
        <h2 id="rule-form-title" className="form-title">
          {t('rules.tab.create')}
        </h2>
      ) : null}
      <div className="form-row">
        <Field>
          <Select
            className="lives-select"
            value={draft.customer_id}
            onChange={(key) => {
              live().draft.customer_id = key === null ? null : Number(key);
              touched('customer_id');
            }}
            isInvalid={Boolean(errors.customer_id)}
            placeholder={t('rules.form.customer.choose')}
            allowsEmptyCollection={!customers.data}
          >
            <Label className="lives-label">{t('rules.form.customer')}</Label>
            <Button ref={firstRef} data-tab-entry={creating ? 'create' : undefined} className="btn lives-select-button" {...invalid('customer_id')}>
              <SelectValue />
              <span aria-hidden="true">▾</span>
            </Button>
            <Popover className="popover lives-select-popover">
              <ListBox
                className="menu-list lives-combo-list"
                items={customers.data ?? []}
                renderEmptyState={customers.data ? undefined : () => <LoadingChoices />}
              >
                {(c) => (
                  <ListBoxItem className="menu-item" id={c.id} textValue={c.name}>
                    {c.name}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </Select>
          {error('customer_id')}
        </Field>
        <Field>
          <label htmlFor={id('name')}>{t('rules.form.name')}</label>
          <input
            id={id('name')}
            autoFocus={!creating}
            type="text"
            value={draft.name}
            maxLength={200}
            autoComplete="off"
            {...invalid('name')}
            onChange={(e) => {
              live().draft.name = e.target.value;
              touched('name');
            }}
          />
          {error('name')}
        </Field>
      </div>

      <Field>
        <Select
          className="lives-select"
          selectionMode="multiple"
          value={[...draft.landings]}
          onChange={(keys) => {
            live().draft.landings = keys.map(Number);
            touched('landings');
          }}
          isInvalid={Boolean(errors.landings)}
          placeholder={t('rules.form.landings.choose')}
          allowsEmptyCollection={!landings.data}
        >
          <Label className="lives-label">{t('rules.form.landings')}</Label>
          <Button className="btn lives-select-button" {...invalid('landings')}>
            <SelectValue className="lives-select-value" />
            <span aria-hidden="true">▾</span>
          </Button>
          <Popover className="popover lives-select-popover">
            <ListBox className="menu-list lives-combo-list" items={landings.data ?? []} renderEmptyState={landings.data ? undefined : () => <LoadingChoices />}>
              {(l) => (
                <ListBoxItem className="menu-item" id={l.id} textValue={l.name}>
                  {l.name}
                </ListBoxItem>
              )}
            </ListBox>
          </Popover>
        </Select>
        {error('landings')}
      </Field>

      <Field>
        <label htmlFor={id('zip')}>{t('rules.form.zip')}</label>
        <div className="zip-box">
          {draft.zip.length ? (
            <TagGroup
              aria-label={t('rules.form.zip.chosen')}
              onRemove={(keys) => {
                live().draft.zip = live().draft.zip.filter((z) => !keys.has(z));
              }}
            >
              <TagList className="zip-tags" items={draft.zip.map((z) => ({ id: z }))}>
                {(item) => (
                  <Tag className="zip-tag" id={item.id} textValue={item.id}>
                    {item.id}
                    <Button slot="remove" className="zip-remove" aria-label={t('rules.form.zip.remove', { code: item.id })}>
                      ×
                    </Button>
                  </Tag>
                )}
              </TagList>
            </TagGroup>
          ) : null}
          <input
            id={id('zip')}
            data-zip-input=""
            type="text"
            inputMode="text"
            autoComplete="off"
            value={draft.zipInput}
            placeholder={draft.zip.length ? '' : t('rules.zip.everywhere')}
            aria-describedby={errors.zip ? `${id('zip-error')} ${id('zip-hint')}` : id('zip-hint')}
            aria-invalid={errors.zip ? true : undefined}
            onChange={(e) => {
              live().draft.zipInput = e.target.value;
              touched('zip');
            }}
            onKeyDown={onZipKey}
            onBlur={addTyped}
            onPaste={(e) => {
              e.preventDefault();
              live().draft.zipInput = `${live().draft.zipInput} ${e.clipboardData.getData('text')}`;
              addTyped();
            }}
          />
        </div>
        <span id={id('zip-hint')} className="field-hint">
          {t('rules.form.zip.hint')}
        </span>
        {error('zip')}
      </Field>

      <Field>
        <DayGroup
          idPrefix={creating ? 'rule' : 'rule-edit'}
          days={draft.days}
          errorId={errors.days ? id('days-error') : undefined}
          onChange={(days) => {
            live().draft.days = days;
            touched('days');
          }}
        />
        {error('days')}
      </Field>

      <div className="form-row">
        <Field>
          <label htmlFor={id('start')}>{t('rules.form.start')}</label>
          <input
            id={id('start')}
            type="text"
            inputMode="numeric"
            placeholder="HH:mm"
            maxLength={5}
            autoComplete="off"
            value={draft.start}
            {...invalid('hours')}
            onChange={(e) => {
              live().draft.start = e.target.value;
              touched('hours');
            }}
            onBlur={() => (live().draft.start = normalizeHour(live().draft.start))}
          />
        </Field>
        <Field>
          <label htmlFor={id('end')}>{t('rules.form.end')}</label>
          <input
            id={id('end')}
            type="text"
            inputMode="numeric"
            placeholder="HH:mm"
            maxLength={5}
            autoComplete="off"
            value={draft.end}
            {...invalid('hours')}
            onChange={(e) => {
              live().draft.end = e.target.value;
              touched('hours');
            }}
            onBlur={() => (live().draft.end = normalizeHour(live().draft.end))}
          />
        </Field>
        <Field>
          <label htmlFor={id('leads_number')}>{t('rules.form.leadsNumber')}</label>
          <input
            id={id('leads_number')}
            type="number"
            min={LEADS_PER_DAY.min}
            max={LEADS_PER_DAY.max}
            step={1}
            value={draft.leads_number}
            {...invalid('leads_number')}
            onChange={(e) => {
              live().draft.leads_number = e.target.value;
              touched('leads_number');
            }}
          />
          {error('leads_number')}
        </Field>
        <Field>
          <label htmlFor={id('price_cents')}>{t('rules.form.price')}</label>
          <input
            id={id('price_cents')}
            type="text"
            inputMode="decimal"
            maxLength={20}
            autoComplete="off"
            value={draft.price}
            aria-invalid={errors.price_cents ? true : undefined}
            aria-describedby={[errors.price_cents ? id('price_cents-error') : '', id('price_cents-hint')].filter(Boolean).join(' ')}
            onChange={(e) => {
              live().draft.price = e.target.value;
              touched('price_cents');
            }}
          />
          <span id={id('price_cents-hint')} className="field-hint">
            {t('rules.form.price.hint')}
          </span>
          {error('price_cents')}
        </Field>
      </div>
      {midnight ? <p className="field-hint">{t('rules.form.midnight', { start: draft.start, end: draft.end })}</p> : null}
      {error('hours')}
      <RuleAdvanced mode={mode} id={id} touched={touched} />
      <RuleSimulation mode={mode} />
      <Checkbox className="check rule-active" isSelected={draft.active} onChange={(on) => (live().draft.active = on)}>
        <span className="check-box" aria-hidden="true" />
        {t('rules.form.active')}
      </Checkbox>
      <div className={creating ? undefined : 'dialog-actions'}>
        {creating ? null : (
          <Button className="btn" onPress={onCancel}>
            {t('rules.edit.cancel')}
          </Button>
        )}
        <CommandMenu
          menu={creating ? 'rules.form' : 'rules.editForm'}
          variant="toolbar"
          label={t(creating ? 'rules.tab.create' : 'rules.edit.title')}
          className="form-actions"
        />
      </div>
    </form>
  );
}

function Field({ children }: { children: ReactNode }) {
  return <div className="field">{children}</div>;
}
