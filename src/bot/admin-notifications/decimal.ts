/**
 * Comparing the service's decimal balance strings with the configured thresholds without
 * floats: `0.1 + 0.2`-style rounding must never decide whether the operator is warned.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Digits kept after the point; TON has 9, USDT 6, thresholds are typed by people. */
const SCALE = 18;

/** The value scaled to an integer, or `undefined` for anything that is not a plain decimal. */
export function scaleDecimal(value: string): bigint | undefined {
  const match = DECIMAL.exec(value.trim());
  if (match === null) return undefined;
  const whole = match[1] ?? "0";
  // Digits beyond the scale are cut, not rounded: far below anything a threshold means.
  const fraction = (match[2] ?? "").slice(0, SCALE).padEnd(SCALE, "0");
  return BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(fraction);
}

/** Whether `value` is strictly below `threshold`; `undefined` when either is not a decimal. */
export function isBelow(value: string, threshold: string): boolean | undefined {
  const a = scaleDecimal(value);
  const b = scaleDecimal(threshold);
  if (a === undefined || b === undefined) return undefined;
  return a < b;
}
