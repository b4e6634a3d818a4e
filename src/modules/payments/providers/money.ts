/**
 * Minor and major currency units. Amounts are integers in minor units everywhere in the service
 * (docs/reference/README.md: amounts and prices are integers in minor currency units); providers such as
 * Mercado Pago speak major units (`unit_price: 50.5`). ISO 4217 says how many minor units a currency has:
 * most have 2, the ones below 0 or 3.
 */
const ZERO_DECIMALS = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'UYI',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

export function minorDigits(currency: string): number {
  if (ZERO_DECIMALS.has(currency)) return 0;
  if (THREE_DECIMALS.has(currency)) return 3;
  return 2;
}

/** `amountMinor` in major units (5050 BRL → 50.5). */
export function toMajor(amountMinor: number, currency: string): number {
  return amountMinor / 10 ** minorDigits(currency);
}

/** A provider's major-unit amount in minor units, rounded to the nearest unit (50.5 BRL → 5050). */
export function toMinor(amountMajor: number, currency: string): number {
  return Math.round(amountMajor * 10 ** minorDigits(currency));
}

/** The platform's fee on `amountMinor` at `feeBps` basis points, in minor units (rounded). */
export function feeMinor(amountMinor: number, feeBps: number): number {
  return Math.round((amountMinor * feeBps) / 10_000);
}
