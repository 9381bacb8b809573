/**
 * The service client's credentials from the configuration, in one place, so which setting
 * becomes which request header is decided (and tested) here rather than where the app is
 * wired together.
 */
import type { GiftServiceCredentials } from "../service/client.js";
import type { Config } from "./types.js";

/**
 * Every header docs/service-contract.md §3 names that the operator configured: `Mnemonic`, `Cookie`,
 * `Wallet-Version` always; `Wallet-Address`, `Proxy`, `Api-Key` and `User-Agent` only when
 * set. `Wallet-Address` is WALLET_ADDRESS as given, also when it matches the derived address;
 * a derived address the operator did not set is not sent (the service derives its own).
 */
export function serviceCredentials(config: Config): GiftServiceCredentials {
  return {
    mnemonic: config.wallet.mnemonic,
    cookie: config.wallet.cookie,
    walletVersion: config.wallet.version,
    ...(config.wallet.configuredAddress ? { walletAddress: config.wallet.configuredAddress } : {}),
    ...(config.service.proxy ? { proxy: config.service.proxy } : {}),
    ...(config.service.apiKey ? { apiKey: config.service.apiKey } : {}),
    ...(config.service.userAgent ? { userAgent: config.service.userAgent } : {}),
  };
}
