import { describe, expect, it } from 'vitest';
import type { Landing } from '../../../../../src/api/landings/contract';
import { knownColumns, listSearch, readListState } from '../../../../../src/api/views/url';

const landing = { id: 1, columns: [{ key: 'nom', label: 'Nom', type: 'text', required: true }] } as unknown as Landing;
const columns = knownColumns([landing]);

describe('the lead view’s URL', () => {
  it('reads back the state it writes, tab first', () => {
    const state = { tab: 'archived' as const, filters: { departement: '30', nom: 'dup' }, sort: { key: 'created_at', dir: 'asc' as const } };
    const search = listSearch(state);
    expect(search.toString()).toBe('tab=archived&sort=created_at.asc&departement=30&nom=dup');
    expect(readListState(search, columns)).toEqual(state);
    expect(listSearch({ tab: 'new', filters: {}, sort: null }).toString()).toBe('');
  });

  it('drops an unknown tab, column or sort and empty values, never throws', () => {
    const read = readListState(new URLSearchParams('tab=nowhere&sort=inconnue.asc&couleur=bleu&nom=&id=5'), columns);
    expect(read).toEqual({ tab: 'new', filters: { id: '5' }, sort: null });
    expect(readListState(new URLSearchParams('sort=created_at.sideways'), columns).sort).toBeNull();
    expect(readListState(new URLSearchParams('sort=%'), columns).sort).toBeNull();
  });

  it('keeps every column while the landings load', () => {
    expect(readListState(new URLSearchParams('couleur=bleu&sort=couleur.desc'), null)).toEqual({
      tab: 'new',
      filters: { couleur: 'bleu' },
      sort: { key: 'couleur', dir: 'desc' },
    });
  });
});
