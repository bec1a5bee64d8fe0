import { useEffect, useRef, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Checkbox, CheckboxGroup, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Tag, TagGroup, TagList } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useCustomers } from '../../api/customers/hooks';
import { useAllLandings } from '../../api/landings/hooks';
import { weekdays, type Weekday } from '../../api/rules/contract';
import { CommandMenu } from '../../commands/CommandMenu';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { escapeToTab } from '../customers/useScreenTabs';
import { addZip, LEADS_PER_DAY, normalizeHour, parseZip, spansMidnight, type RuleField } from './ruleForm';
import { ruleForm } from './store';

/** Clears a field's message as soon as the user changes it. */
function touched(field: RuleField) {
  if (ruleForm.errors[field]) ruleForm.errors = { ...ruleForm.errors, [field]: undefined };
}

function FieldError({ field, id }: { field: RuleField; id: string }) {
  const t = useT();
  const { errors, refusedZip } = useSnapshot(ruleForm);
  const error = errors[field];
  if (!error) return null;
  return (
    <span id={id} className="lives-field-error">
      {t(error, { codes: refusedZip.join(', ') })}
    </span>
  );
}

/** 'Créer une règle' (SPEC.md §5): customer, name, landings, postal codes, days, hours, leads per day. */
export function RuleForm() {
  const t = useT();
  const { draft, errors } = useSnapshot(ruleForm);
  const customers = useCustomers();
  const landings = useAllLandings();
  const firstRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || active.id === 'main') firstRef.current?.focus();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void runCommand('rules.create', undefined, 'button');
  };
  // Enter in a text field sends the form, except in the postal codes field where it adds the codes typed.
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    const target = e.target as HTMLElement;
    if (e.key === 'Enter' && target.matches('input:not([data-zip-input])')) submit(e);
    else escapeToTab(e);
  };

  const addTyped = () => {
    const { entries, invalid } = parseZip(ruleForm.draft.zipInput);
    ruleForm.draft.zip = addZip(ruleForm.draft.zip, entries);
    ruleForm.draft.zipInput = invalid.join(' ');
    ruleForm.refusedZip = invalid;
    ruleForm.errors = { ...ruleForm.errors, zip: invalid.length ? 'rules.form.error.zip' : undefined };
  };
  const onZipKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',' || e.key === ';') {
      e.preventDefault();
      addTyped();
    } else if (e.key === 'Backspace' && e.currentTarget.value === '' && ruleForm.draft.zip.length) {
      ruleForm.draft.zip = ruleForm.draft.zip.slice(0, -1);
    }
  };

  const invalid = (field: RuleField) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `rule-${field}-error` } : {});
  const midnight = spansMidnight(draft.start, draft.end);

  return (
    <form className="lives-form rule-form" onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-labelledby="rule-form-title">
      <h2 id="rule-form-title" className="lives-form-title">
        {t('rules.tab.create')}
      </h2>
      <div className="lives-form-row">
        <Field>
          <Select
            className="lives-select"
            value={draft.customer_id}
            onChange={(key) => {
              ruleForm.draft.customer_id = key === null ? null : Number(key);
              touched('customer_id');
            }}
            isInvalid={Boolean(errors.customer_id)}
            placeholder={t('rules.form.customer.choose')}
          >
            <Label className="lives-label">{t('rules.form.customer')}</Label>
            <Button ref={firstRef} data-tab-entry="create" className="btn lives-select-button" {...invalid('customer_id')}>
              <SelectValue />
              <span aria-hidden="true">▾</span>
            </Button>
            <Popover className="popover lives-select-popover">
              <ListBox className="menu-list lives-combo-list" items={customers.data ?? []}>
                {(c) => (
                  <ListBoxItem className="menu-item" id={c.id} textValue={c.name}>
                    {c.name}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </Select>
          <FieldError field="customer_id" id="rule-customer_id-error" />
        </Field>
        <Field>
          <label htmlFor="rule-name">{t('rules.form.name')}</label>
          <input
            id="rule-name"
            type="text"
            value={draft.name}
            maxLength={200}
            autoComplete="off"
            {...invalid('name')}
            onChange={(e) => {
              ruleForm.draft.name = e.target.value;
              touched('name');
            }}
          />
          <FieldError field="name" id="rule-name-error" />
        </Field>
      </div>

      <Field>
        <Select
          className="lives-select"
          selectionMode="multiple"
          value={[...draft.landings]}
          onChange={(keys) => {
            ruleForm.draft.landings = keys.map(Number);
            touched('landings');
          }}
          isInvalid={Boolean(errors.landings)}
          placeholder={t('rules.form.landings.choose')}
        >
          <Label className="lives-label">{t('rules.form.landings')}</Label>
          <Button className="btn lives-select-button" {...invalid('landings')}>
            <SelectValue className="lives-select-value" />
            <span aria-hidden="true">▾</span>
          </Button>
          <Popover className="popover lives-select-popover">
            <ListBox className="menu-list lives-combo-list" items={landings.data ?? []}>
              {(l) => (
                <ListBoxItem className="menu-item" id={l.id} textValue={l.name}>
                  {l.name}
                </ListBoxItem>
              )}
            </ListBox>
          </Popover>
        </Select>
        <FieldError field="landings" id="rule-landings-error" />
      </Field>

      <Field>
        <label htmlFor="rule-zip">{t('rules.form.zip')}</label>
        <div className="zip-box">
          {draft.zip.length ? (
            <TagGroup
              aria-label={t('rules.form.zip.chosen')}
              onRemove={(keys) => {
                ruleForm.draft.zip = ruleForm.draft.zip.filter((z) => !keys.has(z));
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
            id="rule-zip"
            data-zip-input=""
            type="text"
            inputMode="text"
            autoComplete="off"
            value={draft.zipInput}
            placeholder={draft.zip.length ? '' : t('rules.zip.everywhere')}
            aria-describedby={errors.zip ? 'rule-zip-error rule-zip-hint' : 'rule-zip-hint'}
            aria-invalid={errors.zip ? true : undefined}
            onChange={(e) => {
              ruleForm.draft.zipInput = e.target.value;
              touched('zip');
            }}
            onKeyDown={onZipKey}
            onBlur={addTyped}
            onPaste={(e) => {
              e.preventDefault();
              ruleForm.draft.zipInput = `${ruleForm.draft.zipInput} ${e.clipboardData.getData('text')}`;
              addTyped();
            }}
          />
        </div>
        <span id="rule-zip-hint" className="lives-muted lives-hint">
          {t('rules.form.zip.hint')}
        </span>
        <FieldError field="zip" id="rule-zip-error" />
      </Field>

      <Field>
        <CheckboxGroup
          className="days"
          value={weekdays.filter((d) => draft.days[d])}
          onChange={(days) => {
            for (const d of weekdays) ruleForm.draft.days[d] = days.includes(d);
            touched('days');
          }}
          isInvalid={Boolean(errors.days)}
          aria-describedby={errors.days ? 'rule-days-error' : undefined}
        >
          <Label className="lives-label">{t('rules.form.days')}</Label>
          <div className="days-list">
            {weekdays.map((d: Weekday) => (
              <Checkbox key={d} value={d} className="day-check">
                <span className="day-box" aria-hidden="true" />
                {t(`rules.day.${d}`)}
              </Checkbox>
            ))}
          </div>
        </CheckboxGroup>
        <FieldError field="days" id="rule-days-error" />
      </Field>

      <div className="lives-form-row">
        <Field>
          <label htmlFor="rule-start">{t('rules.form.start')}</label>
          <input
            id="rule-start"
            type="text"
            inputMode="numeric"
            placeholder="HH:mm"
            maxLength={5}
            autoComplete="off"
            value={draft.start}
            {...invalid('hours')}
            onChange={(e) => {
              ruleForm.draft.start = e.target.value;
              touched('hours');
            }}
            onBlur={() => (ruleForm.draft.start = normalizeHour(ruleForm.draft.start))}
          />
        </Field>
        <Field>
          <label htmlFor="rule-end">{t('rules.form.end')}</label>
          <input
            id="rule-end"
            type="text"
            inputMode="numeric"
            placeholder="HH:mm"
            maxLength={5}
            autoComplete="off"
            value={draft.end}
            {...invalid('hours')}
            onChange={(e) => {
              ruleForm.draft.end = e.target.value;
              touched('hours');
            }}
            onBlur={() => (ruleForm.draft.end = normalizeHour(ruleForm.draft.end))}
          />
        </Field>
        <Field>
          <label htmlFor="rule-leads_number">{t('rules.form.leadsNumber')}</label>
          <input
            id="rule-leads_number"
            type="number"
            min={LEADS_PER_DAY.min}
            max={LEADS_PER_DAY.max}
            step={1}
            value={draft.leads_number}
            {...invalid('leads_number')}
            onChange={(e) => {
              ruleForm.draft.leads_number = e.target.value;
              touched('leads_number');
            }}
          />
          <FieldError field="leads_number" id="rule-leads_number-error" />
        </Field>
      </div>
      {midnight ? <p className="lives-muted lives-hint">{t('rules.form.midnight', { start: draft.start, end: draft.end })}</p> : null}
      <FieldError field="hours" id="rule-hours-error" />
      <CommandMenu menu="rules.form" variant="toolbar" label={t('rules.tab.create')} className="lives-actions" />
    </form>
  );
}

function Field({ children }: { children: ReactNode }) {
  return <div className="field lives-field">{children}</div>;
}
