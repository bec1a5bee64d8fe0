import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useT } from '../../i18n/provider';
import { ui } from '../../state/ui';
import { useCommandContext } from '../context';
import { matchesChord, parseShortcut } from '../keys';
import { getCommand, isAvailable, isPermitted, runCommand } from '../registry';
import { actionEntries, choiceEntries, screenEntries, sourceEntries, type PaletteEntry } from './entries';
import { PaletteList } from './PaletteList';
import { recentEntries, rememberRecent } from './recent';
import { paletteSources } from './sources';

/** `g l` opens the palette on the landings only. */
const sections: Record<string, readonly string[]> = { landings: ['landings', 'facebook'] };

/** The palette's own keys (mod+k), from its command: they close what they opened. */
const paletteKeys = () => (getCommand('shell.palette')?.keys ?? []).map(parseShortcut);

function closePalette() {
  ui.palette = { open: false, section: null };
}

/**
 * The palette dialog (mod+k). Closed, it is only its overlay: its entries, their queries and the
 * command context are read by its contents, mounted while it is open, not on every render of the
 * screens beneath it.
 */
export function Palette() {
  const { palette } = useSnapshot(ui);
  return (
    <ModalOverlay isOpen={palette.open} onOpenChange={(open) => !open && closePalette()} isDismissable className="overlay overlay-top">
      <Modal className="palette">
        <PaletteDialog section={palette.section} />
      </Modal>
    </ModalOverlay>
  );
}

/**
 * The sources' lists are fetched on first open (or come from react-query's cache) and their
 * entries built once per change; the actions, screens and choices follow the context. The recent
 * entries are the current entries of the keys last run, so they follow a language switch.
 */
function PaletteDialog({ section }: { section: string | null }) {
  const t = useT();
  const ctx = useCommandContext();
  const user = ctx.user;
  const sources = useMemo(() => paletteSources().filter((s) => isPermitted(s, user)), [user]);
  const combine = useCallback(
    (results: { data?: readonly unknown[] }[]) => sources.flatMap((s, i) => sourceEntries(s, results[i]?.data ?? [], t)),
    [sources, t],
  );
  const sourceLists = useQueries({
    queries: sources.map((s) => ({ ...s.query, staleTime: s.query.staleTime ?? 60_000 })),
    combine,
  });

  const entries = useMemo((): PaletteEntry[] => {
    const all = [...actionEntries(ctx, t), ...screenEntries(ctx, t), ...sourceLists, ...choiceEntries(ctx, t)];
    const runnable = (e: PaletteEntry) => {
      const command = getCommand(e.command);
      return command !== undefined && isAvailable(command, ctx);
    };
    return [...all, ...recentEntries(all).filter(runnable)];
  }, [ctx, t, sourceLists]);

  const run = (entry: PaletteEntry) => {
    closePalette();
    rememberRecent(entry);
    void runCommand(entry.command, entry.args, 'palette');
  };

  const placeholder = t(section === 'landings' ? 'commands.palette.placeholderLandings' : 'commands.palette.placeholder');
  return (
    <Dialog aria-label={t('commands.shell.palette')} className="palette-dialog">
      {/* mod+k closes the palette it opened; other keys belong to the list. */}
      <div
        onKeyDown={(e) => {
          if (paletteKeys().some((chords) => chords.length === 1 && matchesChord(chords[0], e.nativeEvent))) {
            e.preventDefault();
            closePalette();
          }
        }}
      >
        <PaletteList entries={entries} onRun={run} only={section ? sections[section] : undefined} placeholder={placeholder} />
      </div>
    </Dialog>
  );
}
