import type { LandingCategory, LandingColumn } from '../../src/api/landings/contract';
import type { LeadSource } from '../../src/api/leads/contract';

/** The fixed reference data of the demo: landings, customers and their rules, names, buyers. */

export interface DemoLanding {
  key: string;
  name: string;
  kind: 'standard' | 'facebook';
  category: LandingCategory;
  zone_climatique: boolean;
  /** Share of the demo leads. */
  weight: number;
  /** Landing-specific form columns, after the common ones. */
  extra: LandingColumn[];
}

const yesNo = ['Oui', 'Non'];

/** Every landing asks for these first. */
export const COMMON_COLUMNS: LandingColumn[] = [
  { key: 'nom', label: 'Nom', type: 'text', required: true },
  { key: 'prenom', label: 'Prénom', type: 'text', required: true },
  { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
  { key: 'email', label: 'Email', type: 'email', required: true },
  { key: 'code_postal', label: 'Code postal', type: 'postal_code', required: true },
];

export const DEMO_LANDINGS: DemoLanding[] = [
  {
    key: 'pac-air-eau',
    name: 'PAC Air-Eau',
    kind: 'standard',
    category: 'pac',
    zone_climatique: true,
    weight: 24,
    extra: [
      { key: 'type_logement', label: 'Type de logement', type: 'select', required: true, options: ['Maison', 'Appartement'] },
      { key: 'surface', label: 'Surface habitable (m²)', type: 'number', required: false },
      { key: 'proprietaire', label: 'Propriétaire', type: 'select', required: true, options: yesNo },
    ],
  },
  {
    key: 'pac-air-air',
    name: 'PAC Air-Air',
    kind: 'standard',
    category: 'pac',
    zone_climatique: true,
    weight: 12,
    extra: [
      { key: 'chauffage_actuel', label: 'Chauffage actuel', type: 'select', required: true, options: ['Fioul', 'Gaz', 'Électrique', 'Bois'] },
      { key: 'proprietaire', label: 'Propriétaire', type: 'select', required: true, options: yesNo },
    ],
  },
  {
    key: 'panneaux-solaires',
    name: 'Panneaux Solaires',
    kind: 'standard',
    category: 'pv',
    zone_climatique: false,
    weight: 20,
    extra: [
      { key: 'type_toiture', label: 'Type de toiture', type: 'select', required: true, options: ['Tuiles', 'Ardoises', 'Bac acier', 'Toit plat'] },
      { key: 'facture_electricite', label: 'Facture mensuelle (€)', type: 'number', required: false },
      { key: 'proprietaire', label: 'Propriétaire', type: 'select', required: true, options: yesNo },
    ],
  },
  {
    key: 'pv-autoconsommation',
    name: 'PV Autoconsommation',
    kind: 'standard',
    category: 'pv',
    zone_climatique: false,
    weight: 10,
    extra: [
      { key: 'orientation_toit', label: 'Orientation du toit', type: 'select', required: false, options: ['Sud', 'Est', 'Ouest', 'Nord'] },
      { key: 'surface_toit', label: 'Surface du toit (m²)', type: 'number', required: false },
    ],
  },
  {
    key: 'isolation-combles',
    name: 'Isolation Combles',
    kind: 'standard',
    category: 'other',
    zone_climatique: false,
    weight: 9,
    extra: [
      { key: 'type_combles', label: 'Type de combles', type: 'select', required: true, options: ['Perdus', 'Aménagés'] },
      { key: 'surface', label: 'Surface à isoler (m²)', type: 'number', required: false },
    ],
  },
  {
    key: 'mutuelle-senior',
    name: 'Mutuelle Senior',
    kind: 'standard',
    category: 'other',
    zone_climatique: false,
    weight: 7,
    extra: [
      { key: 'date_naissance', label: 'Date de naissance', type: 'date', required: true },
      { key: 'regime', label: 'Régime', type: 'select', required: false, options: ['Général', 'Agricole', 'Indépendant'] },
      { key: 'commentaire', label: 'Commentaire', type: 'text', required: false },
    ],
  },
  {
    key: 'facebook-pac',
    name: 'Facebook PAC',
    kind: 'facebook',
    category: 'pac',
    zone_climatique: false,
    weight: 11,
    extra: [{ key: 'type_logement', label: 'Type de logement', type: 'select', required: true, options: ['Maison', 'Appartement'] }],
  },
  {
    key: 'facebook-solaire',
    name: 'Facebook Solaire',
    kind: 'facebook',
    category: 'pv',
    zone_climatique: false,
    weight: 7,
    extra: [{ key: 'proprietaire', label: 'Propriétaire', type: 'select', required: true, options: yesNo }],
  },
];

/** Where a lead comes from, for standard landings (facebook landings take 'facebook' mostly). */
export const SOURCE_WEIGHTS: Array<[LeadSource, number]> = [
  ['taboola', 30],
  ['google', 18],
  ['outbrain', 12],
  ['facebook', 10],
  ['email', 8],
  ['sms', 6],
  ['internal', 4],
  ['autre', 12],
];

export const UTM_MEDIUM: Record<LeadSource, string | null> = {
  taboola: 'native',
  outbrain: 'native',
  google: 'cpc',
  facebook: 'paid_social',
  email: 'newsletter',
  sms: 'sms',
  internal: 'internal',
  autre: null,
};

export const PRESALE_SITES = ['https://www.infos-renovation.fr', 'https://www.guide-economies-energie.fr', 'https://www.maison-durable.info'];

/** Departments where the business is strongest (the map preselects Gard and Hérault). */
export const DEPARTMENT_BOOST: Record<string, number> = { '30': 5, '34': 5, '13': 2.5, '84': 3, '11': 3, '66': 2.5, '31': 2, '33': 1.5, '69': 1.5 };

export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.local', password: 'demo-admin', name: 'Admin Démo', admin: true },
  { email: 'staff@demo.local', password: 'demo-staff', name: 'Camille Martin', admin: false },
] as const;

export interface DemoRule {
  name: string;
  landings: string[];
  /** Departments the rule takes (its `zip` list); empty: every postal code. */
  departements: string[];
  hours: [string, string];
  leads_number: number;
  days: Array<'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday'>;
  /** A paused rule (the demo shows one). */
  paused?: boolean;
}

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as DemoRule['days'];
const everyDay = [...weekdays, 'saturday', 'sunday'] as DemoRule['days'];

export const DEMO_CUSTOMERS: Array<{ name: string; email: string; rules: DemoRule[] }> = [
  {
    name: 'Éco Habitat Sud',
    email: 'contact@eco-habitat-sud.fr',
    rules: [
      {
        name: 'PAC Gard-Hérault',
        landings: ['pac-air-eau', 'facebook-pac'],
        departements: ['30', '34'],
        hours: ['08:00', '20:00'],
        leads_number: 6,
        days: weekdays,
      },
      {
        name: 'PAC Air-Air Occitanie',
        landings: ['pac-air-air'],
        departements: ['11', '30', '34', '66'],
        hours: ['00:00', '23:59'],
        leads_number: 4,
        days: everyDay,
      },
    ],
  },
  {
    name: 'Soleil Conseil',
    email: 'leads@soleil-conseil.fr',
    rules: [
      {
        name: 'Solaire France entière',
        landings: ['panneaux-solaires', 'facebook-solaire'],
        departements: [],
        hours: ['09:00', '19:00'],
        leads_number: 15,
        days: weekdays,
      },
      {
        name: 'Autoconsommation PACA',
        landings: ['pv-autoconsommation'],
        departements: ['13', '83', '84', '06'],
        hours: ['00:00', '23:59'],
        leads_number: 3,
        days: everyDay,
      },
      {
        name: 'Solaire Rhône-Alpes',
        landings: ['panneaux-solaires'],
        departements: ['01', '38', '42', '69'],
        hours: ['08:00', '18:00'],
        leads_number: 2,
        days: ['monday', 'wednesday', 'friday'],
        paused: true,
      },
    ],
  },
  {
    name: "Rénov'Expert",
    email: 'achats@renovexpert.fr',
    rules: [
      {
        name: 'Combles Sud-Ouest',
        landings: ['isolation-combles'],
        departements: ['31', '33', '40', '64'],
        hours: ['08:00', '20:00'],
        leads_number: 3,
        days: weekdays,
      },
      { name: 'PAC toutes zones', landings: ['pac-air-eau'], departements: [], hours: ['00:00', '23:59'], leads_number: 30, days: everyDay },
      { name: 'Soirées PAC Facebook', landings: ['facebook-pac'], departements: [], hours: ['19:00', '07:00'], leads_number: 5, days: everyDay },
    ],
  },
];

/** Buyers of exported files ('Vendu à'), besides the customers. */
export const OTHER_BUYERS = ['Leadinvest', 'Groupe Thermique Ouest', 'Mutuelles Réunies', 'Énergie Directe'];

export const FIRST_NAMES = [
  'Marie',
  'Jean',
  'Pierre',
  'Michel',
  'Nathalie',
  'Isabelle',
  'Philippe',
  'Sylvie',
  'Catherine',
  'Alain',
  'Françoise',
  'Christophe',
  'Patrick',
  'Martine',
  'Nicolas',
  'Sandrine',
  'Laurent',
  'Christine',
  'Éric',
  'Valérie',
  'Stéphane',
  'Véronique',
  'David',
  'Céline',
  'Frédéric',
  'Sophie',
  'Olivier',
  'Brigitte',
  'Thierry',
  'Chantal',
  'Julien',
  'Aurélie',
  'Sébastien',
  'Émilie',
  'Hélène',
  'François',
  'Bernard',
  'Monique',
  'Daniel',
  'Josiane',
  'Gérard',
  'Annie',
  'Pascal',
  'Dominique',
  'Thomas',
  'Camille',
  'Léa',
  'Hugo',
  'Chloé',
  'Lucas',
];

export const LAST_NAMES = [
  'Martin',
  'Bernard',
  'Dubois',
  'Thomas',
  'Robert',
  'Richard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
  'Simon',
  'Laurent',
  'Lefebvre',
  'Michel',
  'Garcia',
  'David',
  'Bertrand',
  'Roux',
  'Vincent',
  'Fournier',
  'Morel',
  'Girard',
  'André',
  'Lefèvre',
  'Mercier',
  'Dupont',
  'Lambert',
  'Bonnet',
  'François',
  'Martinez',
  'Legrand',
  'Garnier',
  'Faure',
  'Rousseau',
  'Blanc',
  'Guérin',
  'Muller',
  'Henry',
  'Roussel',
  'Nicolas',
  'Perrin',
  'Morin',
  'Mathieu',
  'Clément',
  'Gauthier',
  'Dumont',
  'Lopez',
  'Fontaine',
  'Chevalier',
  'Robin',
];

export const MAIL_DOMAINS: Array<[string, number]> = [
  ['gmail.com', 34],
  ['orange.fr', 18],
  ['hotmail.fr', 12],
  ['free.fr', 9],
  ['sfr.fr', 7],
  ['laposte.net', 6],
  ['yahoo.fr', 6],
  ['wanadoo.fr', 5],
  ['outlook.fr', 3],
];
