import { DEFAULT_PRICES, withOverride, type PriceTable } from "../../engine/prices.js";
import { parseUserConfig } from "../../optin/user-config.js";

/** The price table a command estimates dollars with: the built-in one, with the user's override when this environment carries it. */
export function pricesFor(env: Record<string, string | undefined>): PriceTable {
  return withOverride(DEFAULT_PRICES, parseUserConfig(env).prices);
}
