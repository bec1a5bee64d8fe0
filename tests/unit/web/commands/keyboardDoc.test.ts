// docs/keyboard.md's tables are generated: the screens' navigation from the screen declarations,
// every command by section from the registry; this test fails when they drift apart.
// `UPDATE_KEYBOARD_DOC=1 npx vitest run tests/unit/web/commands/keyboardDoc.test.ts` rewrites them.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import '../../../../src/app/commands';
import { shortcutCaps } from '../../../../src/commands/keys';
import { allCommands } from '../../../../src/commands/registry';
import { allScreens, entriesOf, navCommandId, screenPath } from '../../../../src/commands/screens';
import { loadMessages } from '../../../../src/i18n';

const doc = resolve(import.meta.dirname, '../../../../docs/keyboard.md');

function replaceBlock(text: string, name: string, lines: string[]) {
  const start = `<!-- ${name}: generated -->`;
  const end = `<!-- end of ${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`docs/keyboard.md has no "${name}" block`);
  return text.slice(0, from) + [start, ...lines, end].join('\n') + text.slice(to + end.length);
}

it('docs/keyboard.md lists every screen and every command with its keys', async () => {
  const fr = await loadMessages('fr');
  const en = await loadMessages('en');
  const t = (id: string) => en[id] ?? id;
  const caps = (keys: readonly string[] = []) =>
    keys
      .map(
        (k) =>
          `\`${shortcutCaps(k, t)
            .map((chord) => chord.join('+'))
            .join(' then ')}\``,
      )
      .join(', ') || '—';
  const who = (requires: string) => (requires === 'admin' ? 'admins' : 'everyone');

  const screens = allScreens().flatMap((s) =>
    entriesOf(s).map(
      (e, i) => `| ${caps(e.keys)} | ${fr[e.title ?? s.title]} | \`${screenPath(s, e.params ?? {})}\` | ${navCommandId(s, i)} | ${who(s.requires)} |`,
    ),
  );
  // Sections by their French title, commands by id: the registry's order is the order its modules
  // were first imported, which the unit files, sharing one module graph, change (vitest.config.ts).
  const title = (section: string) => fr[`commands.section.${section}`] ?? section;
  const sorted = allCommands().sort((a, b) => a.id.localeCompare(b.id));
  const sections = [...new Set(sorted.map((c) => c.section))].sort((a, b) => title(a).localeCompare(title(b), 'fr'));
  const commands = sections.flatMap((section) => [
    '',
    `### ${title(section)}`,
    '',
    '| Keys | Command | Title (fr) | Who |',
    '|---|---|---|---|',
    ...sorted.filter((c) => c.section === section).map((c) => `| ${caps(c.keys)} | ${c.id} | ${fr[c.title] ?? c.title} | ${who(c.requires)} |`),
  ]);

  const text = readFileSync(doc, 'utf8');
  const next = replaceBlock(replaceBlock(text, 'screens', ['| Keys | Screen | Path | Command | Who |', '|---|---|---|---|---|', ...screens]), 'commands', [
    ...commands,
    '',
  ]);
  if (process.env.UPDATE_KEYBOARD_DOC) writeFileSync(doc, next);
  else expect(text).toBe(next);
});
