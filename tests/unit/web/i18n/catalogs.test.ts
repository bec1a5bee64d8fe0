// The four catalogs (src/i18n/{fr,en,es,zh}.json) hold the same message ids, none empty, and every
// id the declarations name (screen titles and menu labels, menu groups, command titles, help
// sections, menu labels and confirmations) is in all four: a missing id fails here, not on screen.
import { describe, expect, it } from 'vitest';
import '../../../../src/app/commands';
import { allCommands } from '../../../../src/commands/registry';
import { allScreens, entriesOf, menuGroups, publicScreens } from '../../../../src/commands/screens';
import { languages, loadMessages } from '../../../../src/i18n';

const catalogs = await Promise.all(languages.map(async (language) => ({ language, messages: await loadMessages(language) })));

/** Every message id a declaration names, with where it is named. */
function declaredIds(): { id: string; where: string }[] {
  const ids: { id: string; where: string }[] = [];
  const add = (id: string | undefined, where: string) => {
    if (id !== undefined) ids.push({ id, where });
  };
  for (const group of menuGroups) add(group.title, `menu group ${group.id}`);
  for (const screen of publicScreens()) add(screen.title, `screen ${screen.id}`);
  for (const screen of allScreens()) {
    add(screen.title, `screen ${screen.id}`);
    for (const entry of entriesOf(screen)) {
      add(entry.title, `screen ${screen.id}`);
      add(entry.menu?.label, `screen ${screen.id}`);
    }
  }
  for (const command of allCommands()) {
    const where = `command ${command.id}`;
    add(command.title, where);
    add(`commands.section.${command.section}`, where);
    for (const place of command.menus ?? []) add(place.label, where);
    const confirm = command.confirm;
    if (typeof confirm === 'string') add(confirm, where);
    else if (confirm) for (const id of [confirm.message, confirm.title, confirm.ok]) add(id, where);
  }
  return ids;
}

describe('i18n catalogs', () => {
  it('hold the same ids in the four languages, none empty', () => {
    const all = new Set(catalogs.flatMap((c) => Object.keys(c.messages)));
    for (const { language, messages } of catalogs) {
      expect(
        [...all].filter((id) => !(id in messages)),
        `ids missing from ${language}.json`,
      ).toEqual([]);
      expect(
        Object.keys(messages).filter((id) => messages[id].trim() === ''),
        `empty messages in ${language}.json`,
      ).toEqual([]);
    }
  });

  it('hold every id the screens and commands declare', () => {
    const ids = declaredIds();
    expect(ids.length).toBeGreaterThan(100);
    for (const { language, messages } of catalogs) {
      expect(
        ids.filter(({ id }) => !(id in messages)).map(({ id, where }) => `${id} (${where})`),
        `missing from ${language}.json`,
      ).toEqual([]);
    }
  });
});
