// docs/keyboard.md's table of the shell's shortcuts is generated from the registry; this test
// fails when they drift apart. `UPDATE_KEYBOARD_DOC=1 npx vitest run tests/unit/commands.keyboardDoc.test.ts` rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import '../../src/app/commands';
import { shortcutCaps } from '../../src/commands/keys';
import { allCommands } from '../../src/commands/registry';
import { loadMessages } from '../../src/i18n';

const doc = resolve(import.meta.dirname, '../../docs/keyboard.md');
const START = '<!-- shell shortcuts: generated from the registry -->';
const END = '<!-- end of the generated shortcuts -->';

it('docs/keyboard.md lists every shortcut of the navigation, shell and tags commands', async () => {
  const fr = await loadMessages('fr');
  const en = await loadMessages('en');
  const t = (id: string) => en[id] ?? id;
  const rows = allCommands()
    .filter((c) => ['navigation', 'shell', 'tags'].includes(c.section))
    .map((c) => {
      const keys = (c.keys ?? []).map((k) => shortcutCaps(k, t).map((chord) => chord.join('+')).join(' then ')).map((k) => `\`${k}\``);
      return `| ${keys.join(', ') || '—'} | ${c.id} | ${fr[c.title] ?? c.title} | ${c.requires === 'admin' ? 'admins' : 'everyone'} |`;
    });
  const table = [START, '| Keys | Command | Palette title (fr) | Who |', '|---|---|---|---|', ...rows, END].join('\n');
  const text = readFileSync(doc, 'utf8');
  const current = text.slice(text.indexOf(START), text.indexOf(END) + END.length);
  if (process.env.UPDATE_KEYBOARD_DOC) writeFileSync(doc, text.replace(current, table));
  else expect(current).toBe(table);
});
