import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { api, ApiError } from '../../api/client';
import { useFacebookLandings, useLandings } from '../../api/landings/hooks';
import { useT } from '../../i18n/provider';
import { ui } from '../../state/ui';
import { useCommandContext } from '../context';
import { matchesChord, parseShortcut } from '../keys';
import { getCommand, isAvailable, runCommand } from '../registry';
import {
  actionEntries,
  entityEntries,
  landingEntries,
  preferenceEntries,
  screenEntries,
  type NamedEntity,
  type PaletteEntry,
  type PaletteGroup,
} from './entries';
import { PaletteList } from './PaletteList';
import { readRecent, rememberRecent } from './recent';

/** A list that may not exist yet on the server (GET /api/customers before its issue lands): a 404 is an empty list. */
async function optionalList(path: string): Promise<NamedEntity[]> {
  try {
    return await api<NamedEntity[]>(path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

const sections: Record<string, readonly PaletteGroup[]> = { landings: ['landings', 'facebook'] };

const toggleChord = parseShortcut('mod+k')[0];

function closePalette() {
  ui.palette = { open: false, section: null };
}

/** The palette dialog (mod+k): entities are fetched on first open and their entries built once per change. */
export function Palette() {
  const { palette, language, size } = useSnapshot(ui);
  const t = useT();
  const ctx = useCommandContext();
  const admin = ctx.user?.admin === true;
  const landings = useLandings();
  const facebook = useFacebookLandings();
  const customers = useQuery({ queryKey: ['customers'], queryFn: () => optionalList('/customers'), enabled: palette.open && admin });
  const users = useQuery({ queryKey: ['users'], queryFn: () => optionalList('/users'), enabled: palette.open && admin });

  const landingList = useMemo(() => landingEntries(landings.data ?? [], 'landings'), [landings.data]);
  const facebookList = useMemo(() => landingEntries(facebook.data ?? [], 'facebook'), [facebook.data]);
  const customerList = useMemo(() => entityEntries(admin ? (customers.data ?? []) : [], 'customers', t('shell.menu.rules')), [customers.data, admin, t]);
  const userList = useMemo(() => entityEntries(admin ? (users.data ?? []) : [], 'users', t('shell.menu.exports')), [users.data, admin, t]);

  const entries = useMemo((): PaletteEntry[] => {
    if (!palette.open) return [];
    const now = ctx;
    const runnable = (e: PaletteEntry) => {
      const command = getCommand(e.command);
      return command !== undefined && isAvailable(command, now);
    };
    return [
      ...actionEntries(now, t),
      ...screenEntries(now, t),
      ...landingList,
      ...facebookList,
      ...customerList,
      ...userList,
      ...preferenceEntries(now, t, { language, size }),
      ...readRecent().filter(runnable),
    ];
  }, [palette.open, ctx, t, landingList, facebookList, customerList, userList, language, size]);

  const run = (entry: PaletteEntry) => {
    closePalette();
    rememberRecent(entry);
    void runCommand(entry.command, entry.args, 'palette');
  };

  const placeholder = t(palette.section === 'landings' ? 'commands.palette.placeholderLandings' : 'commands.palette.placeholder');
  return (
    <ModalOverlay isOpen={palette.open} onOpenChange={(open) => !open && closePalette()} isDismissable className="overlay overlay-top">
      <Modal className="palette">
        <Dialog aria-label={t('commands.shell.palette')} className="palette-dialog">
          {/* mod+k closes the palette it opened; other keys belong to cmdk. */}
          <div
            onKeyDown={(e) => {
              if (matchesChord(toggleChord, e.nativeEvent)) {
                e.preventDefault();
                closePalette();
              }
            }}
          >
            <PaletteList entries={entries} onRun={run} only={palette.section ? sections[palette.section] : undefined} placeholder={placeholder} />
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
