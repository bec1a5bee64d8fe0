// @vitest-environment jsdom
// The console's language is react-aria's too: its own texts and list formats (a multiple Select's
// "A, B et C", its hidden buttons' names) follow a live switch, not the browser's language.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, useLocale } from 'react-aria-components';
import { afterEach, describe, expect, it } from 'vitest';
import { IntlProvider } from '../../../../src/i18n/provider';
import { ui } from '../../../../src/state/ui';
import { intl } from '../gridHarness';

afterEach(() => {
  cleanup();
  ui.language = 'fr';
});

function Locale() {
  return <output>{useLocale().locale}</output>;
}

function Landings() {
  return (
    <Select selectionMode="multiple" defaultValue={['a', 'b', 'c']} aria-label="Landings">
      <Label>Landings</Label>
      <Button>
        <SelectValue data-testid="value" />
      </Button>
      <Popover>
        <ListBox>
          <ListBoxItem id="a">PAC</ListBoxItem>
          <ListBoxItem id="b">PV</ListBoxItem>
          <ListBoxItem id="c">Isolation</ListBoxItem>
        </ListBox>
      </Popover>
    </Select>
  );
}

describe('the language of react-aria', () => {
  it('is the console language and follows a live switch', async () => {
    ui.language = 'fr';
    render(
      <IntlProvider initial={intl}>
        <Locale />
        <Landings />
      </IntlProvider>,
    );
    expect(screen.getByRole('status').textContent).toMatch(/^fr/);
    expect(screen.getByTestId('value').textContent).toBe('PAC, PV et Isolation');
    act(() => {
      ui.language = 'en';
    });
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^en/));
    expect(screen.getByTestId('value').textContent).toBe('PAC, PV, and Isolation');
    act(() => {
      ui.language = 'zh';
    });
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^zh/));
  });
});
