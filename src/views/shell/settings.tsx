import {
  Button,
  ColorSwatch,
  ColorSwatchPicker,
  ColorSwatchPickerItem,
  Dialog,
  DialogTrigger,
  Menu,
  MenuItem,
  MenuTrigger,
  parseColor,
  Popover,
} from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { runCommand } from '../../commands/registry';
import { languageNames, languages } from '../../i18n';
import { themeColours } from './themeColours';
import { useT } from '../../i18n/provider';
import { sizes, ui } from '../../state/ui';
import { Hint } from '../../ui/Hint';
import { Icon } from '../../ui/icons';

export function LanguageMenu() {
  const t = useT();
  const { language } = useSnapshot(ui);
  return (
    <MenuTrigger>
      <Hint label={t('shell.language')}>
        <Button className="icon-btn">
          <Icon name="language" />
          <span className="visually-hidden">{t('shell.language')}</span>
          <span className="icon-btn-text">{language.toUpperCase()}</span>
        </Button>
      </Hint>
      <Popover className="popover" placement="bottom end">
        <Menu
          className="menu-list"
          aria-label={t('shell.language')}
          selectionMode="single"
          selectedKeys={[language]}
          onAction={(key) => void runCommand('shell.language', { language: key }, 'menu')}
        >
          {languages.map((l) => (
            <MenuItem key={l} id={l} className="menu-item" lang={l}>
              {languageNames[l]}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** Medium, Small, Mini; the current one is disabled (docs/product.md §2). */
export function SizeMenu() {
  const t = useT();
  const { size } = useSnapshot(ui);
  return (
    <MenuTrigger>
      <Hint label={t('shell.size')}>
        <Button className="icon-btn" aria-label={t('shell.size')}>
          <Icon name="size" />
        </Button>
      </Hint>
      <Popover className="popover" placement="bottom end">
        <Menu className="menu-list" aria-label={t('shell.size')} disabledKeys={[size]} onAction={(key) => void runCommand('shell.size', { size: key }, 'menu')}>
          {sizes.map((s) => (
            <MenuItem key={s} id={s} className="menu-item">
              {t(`shell.size.${s}`)}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

export function ThemePicker() {
  const t = useT();
  const { theme } = useSnapshot(ui);
  return (
    <DialogTrigger>
      <Hint label={t('shell.theme')}>
        <Button className="icon-btn" aria-label={t('shell.theme')}>
          <Icon name="theme" />
        </Button>
      </Hint>
      <Popover className="popover" placement="bottom end">
        <Dialog className="popover-dialog" aria-label={t('shell.theme')}>
          <ColorSwatchPicker
            className="swatches"
            aria-label={t('shell.theme')}
            value={parseColor(theme)}
            onChange={(c) => void runCommand('shell.theme', { color: c.toString('hex') }, 'menu')}
          >
            {themeColours.map((c) => (
              <ColorSwatchPickerItem key={c} color={c} className="swatch-item">
                <ColorSwatch className="swatch" />
              </ColorSwatchPickerItem>
            ))}
          </ColorSwatchPicker>
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
