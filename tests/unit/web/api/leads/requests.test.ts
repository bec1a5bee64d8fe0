import { describe, expect, it } from 'vitest';
import type { LeadKey } from '../../../../../src/api/leads/contract';
import { leadColumns, leadFilters } from '../../../../../src/api/leads/requests';
import { last90Days } from '../../../../../src/shared/dates';
import { parseLandingIds } from '../../../../../src/views/leads';

const key = (k: string, fixed: boolean, filter: LeadKey['filter'], extra: Partial<LeadKey> = {}): LeadKey => ({
  key: k,
  label: fixed ? null : k.toUpperCase(),
  type: 'text',
  fixed,
  hidden: k === 'rapport_id',
  filter,
  ...extra,
});

describe('lead list columns and filters', () => {
  const keys = [
    key('id', true, 'number'),
    key('created_at', true, 'date'),
    key('entry_status', true, 'values', { options: ['new', 'archived'] }),
    key('rapport_id', true, 'number'),
    key('nom', false, 'text'),
    key('rdv', false, 'date'),
  ];
  const columns = leadColumns(keys);

  it('puts the form columns right after id and date, leaves fixed columns to be named in the current language, keeps rapport_id hidden', () => {
    expect(columns.map((c) => c.key)).toEqual(['id', 'created_at', 'nom', 'rdv', 'entry_status', 'rapport_id']);
    expect(columns.find((c) => c.key === 'created_at')).toMatchObject({ label: '', kind: 'date', width: 196 });
    expect(columns.find((c) => c.key === 'nom')).toMatchObject({ label: 'NOM', kind: 'text' });
    expect(columns.find((c) => c.key === 'entry_status')).toMatchObject({ kind: 'select', options: ['new', 'archived'] });
    expect(columns.find((c) => c.key === 'rapport_id')?.hidden).toBe(true);
  });

  it('sends each grid filter in the API kind of its column', () => {
    expect(leadFilters({ nom: 'dur', rdv: '2025-01-01<>', entry_status: 'new', id: '12' }, columns)).toEqual({
      contains: { nom: 'dur', id: '12' },
      values: { entry_status: ['new'] },
      dates: { rdv: '2025-01-01<>' },
    });
  });
});

describe('lead view helpers', () => {
  it('reads the landing ids of the route', () => {
    expect(parseLandingIds('3,5,3')).toEqual([3, 5]);
    expect(parseLandingIds('0,x,-2,7')).toEqual([7]);
    expect(parseLandingIds(undefined)).toEqual([]);
  });

  it('spans the last 90 days by default', () => {
    expect(last90Days(new Date(2025, 2, 31))).toEqual(['2024-12-31', '2025-03-31']);
  });
});
