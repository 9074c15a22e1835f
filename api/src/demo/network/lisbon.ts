import { type DemoRegion } from './model';

export const LISBON_AREAS = [
  'Alvalade',
  'Alcântara',
  'Belém',
  'Benfica',
  'Campo de Ourique',
  'Estrela',
  'Graça',
  'Lumiar',
  'Marvila',
  'Olivais',
  'Parque das Nações',
  'Penha de França',
  'Santa Maria Maior',
  'São Domingos de Benfica',
  'Amadora',
  'Odivelas',
  'Loures',
  'Oeiras',
  'Algés',
  'Carcavelos',
  'Almada',
  'Seixal',
  'Barreiro',
  'Sintra',
];

/** Vodafone PT's network of every release so far: LX sites around Lisbon, 15% of them MOCN with NOS. */
export const LISBON: DemoRegion = {
  idPrefix: 'LX',
  lat: 38.6,
  lon: -9.4,
  latSpan: 0.3,
  lonSpan: 0.4,
  areas: LISBON_AREAS,
  plmn: { mcc: '268', mnc: '01' },
  mocnPlmn: { mcc: '268', mnc: '03' },
  mocnShare: 0.15,
};
