import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../../../src/api/events/contract';
import { tabChange } from '../../../../../src/views/leads/live';

const at = '2026-11-28T10:00:00Z';
const marie = { id: 2, name: 'Marie Curie' };
const archived = (by: { id: number; name: string } | null, landing = 3): LiveEvent => ({
  id: 1,
  at,
  type: 'leads.status',
  data: { landing_id: landing, ids: [10, 11], from: 'new', to: 'archived', by },
});
const newTab = { landingIds: [3, 4], status: 'new' as const, me: 1 };

describe('tabChange', () => {
  it('counts an intake on its landing as arrived in the tab of its status, and nowhere else', () => {
    const created: LiveEvent = { id: 1, at, type: 'lead.created', data: { landing_id: 4, lead_id: 9, departement: '30', entry_status: 'new' } };
    expect(tabChange(created, newTab)).toEqual({ arrived: 1, departure: null });
    expect(tabChange(created, { ...newTab, status: 'archived' })).toBeNull();
    const duplicate: LiveEvent = { ...created, data: { ...created.data, entry_status: 'duplicate' } };
    expect(tabChange(duplicate, newTab)).toBeNull();
    expect(tabChange(duplicate, { ...newTab, status: 'duplicate' })?.arrived).toBe(1);
    expect(tabChange(created, { ...newTab, landingIds: [5] })).toBeNull();
  });

  it("counts an import's leads of the tab's status as arrived, whoever else imported them, in one event", () => {
    const imported: LiveEvent = {
      id: 1,
      at,
      type: 'leads.imported',
      data: { landing_id: 3, entry_status: 'new', count: 100_000, first_id: 11, last_id: 100_010, by: marie },
    };
    expect(tabChange(imported, newTab)).toEqual({ arrived: 100_000, departure: null });
    expect(tabChange(imported, { ...newTab, status: 'duplicate' })).toBeNull();
    expect(tabChange(imported, { ...newTab, landingIds: [5] })).toBeNull();
    expect(tabChange({ ...imported, data: { ...imported.data, by: { id: 1, name: 'Moi' } } }, newTab)).toBeNull();
  });

  it("counts a restore's leads of the tab's status as arrived, the user's own restore too (made on the archives screen, not in this list)", () => {
    const restored: LiveEvent = {
      id: 1,
      at,
      type: 'leads.restored',
      data: { landing_id: 4, entry_status: 'archived', count: 40, first_id: 3, last_id: 90, by: { id: 1, name: 'Moi' } },
    };
    expect(tabChange(restored, { ...newTab, status: 'archived' })).toEqual({ arrived: 40, departure: null });
    expect(tabChange(restored, newTab)).toBeNull();
    expect(tabChange(restored, { ...newTab, landingIds: [3], status: 'archived' })).toBeNull();
  });

  it("takes out the leads another user moved, with that user's name, and counts them in the tab they went to", () => {
    expect(tabChange(archived(marie), newTab)).toEqual({ arrived: 0, departure: { ids: [10, 11], to: 'archived', by: 'Marie Curie', mine: false } });
    expect(tabChange(archived(marie), { ...newTab, status: 'archived' })).toEqual({ arrived: 2, departure: null });
    expect(tabChange(archived(null), newTab)?.departure?.by).toBeNull();
    expect(tabChange(archived(marie, 8), newTab)).toBeNull();
  });

  it("marks the user's own changes (another browser tab's) as theirs, and counts no arrival for them: their action reloaded the list", () => {
    expect(tabChange(archived({ id: 1, name: 'Moi' }), newTab)?.departure?.mine).toBe(true);
    expect(tabChange(archived({ id: 1, name: 'Moi' }), { ...newTab, status: 'archived' })).toBeNull();
    const deleted: LiveEvent = { id: 1, at, type: 'leads.deleted', data: { landing_id: 3, ids: [5], from: 'new', by: { id: 1, name: 'Moi' } } };
    expect(tabChange(deleted, newTab)?.departure).toEqual({ ids: [5], to: 'deleted', by: 'Moi', mine: true });
    expect(tabChange({ ...deleted, data: { ...deleted.data, by: marie } }, newTab)?.departure).toEqual({
      ids: [5],
      to: 'deleted',
      by: 'Marie Curie',
      mine: false,
    });
  });

  it('a conversion leaves its landing and brings its copies to the other one; a sale or a return is left to its leads.status', () => {
    const converted: LiveEvent = {
      id: 1,
      at,
      type: 'leads.converted',
      data: { landing_id: 3, ids: [1, 2], from: 'new', to_landing_id: 4, copy_ids: [7, 8], by: marie },
    };
    expect(tabChange(converted, newTab)).toEqual({ arrived: 2, departure: { ids: [1, 2], to: 'converted', by: 'Marie Curie', mine: false } });
    const sold: LiveEvent = {
      id: 1,
      at,
      type: 'lead.sold',
      data: { lead_id: 6, landing_id: 3, sale_id: 1, customer: { id: 1, name: 'Isolatech' }, rule: null, channel: 'live' },
    };
    expect(tabChange(sold, newTab)).toBeNull();
    const routed: LiveEvent = { id: 2, at, type: 'leads.status', data: { landing_id: 3, ids: [6], from: 'new', to: 'extracted', by: null } };
    expect(tabChange(routed, newTab)?.departure).toEqual({ ids: [6], to: 'extracted', by: null, mine: false });
    expect(tabChange(routed, { ...newTab, status: 'extracted' })?.arrived).toBe(1);
  });
});
