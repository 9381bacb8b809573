/**
 * The paying wallet, worked out offline from the mnemonic, so the bot can show (and an admin
 * can check) which wallet a purchase pays from before any money moves.
 *
 * Messages here never include a word of the phrase: positions at most.
 */
import { Address } from "@ton/core";
import { mnemonicToPrivateKey, mnemonicValidate, mnemonicWordList } from "@ton/crypto";
// The wallet contracts by their own modules: @ton/ton's index also loads its HTTP clients (axios
// and friends), which only on-chain evidence needs, and which would slow every start.
import { WalletContractV3R2 } from "@ton/ton/dist/wallets/WalletContractV3R2.js";
import { WalletContractV4 } from "@ton/ton/dist/wallets/WalletContractV4.js";
import { WalletContractV5R1 } from "@ton/ton/dist/wallets/WalletContractV5R1.js";
import type { WalletVersion } from "../service/types.js";
import type { ConcreteWalletVersion } from "./types.js";

const WORDS = new Set(mnemonicWordList);

/** A phrase that passed its checks; `publicKey` only for TON phrases (BIP39 ones are not derived). */
export type CheckedMnemonic =
  | { ok: true; scheme: "ton"; words: string[]; publicKey: Buffer }
  | { ok: true; scheme: "bip39"; words: string[] }
  | { ok: false; reason: string };

/** Single spaces, lower case: how wallets and the service expect the words. */
export function normaliseMnemonic(phrase: string): string[] {
  return phrase.trim().toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * Checks the phrase the way the wallet will read it. 24 words are a TON phrase and must pass
 * @ton/crypto's `mnemonicValidate` (which accepts any phrase for key derivation, so an
 * unchecked typo would silently mean another wallet). 12 and 18 words are BIP39 phrases of
 * Ledger-style wallets: each word must be in the word list.
 */
export async function checkMnemonic(words: string[]): Promise<CheckedMnemonic> {
  if (![12, 18, 24].includes(words.length)) {
    return { ok: false, reason: `must have 12, 18 or 24 words, it has ${words.length}` };
  }
  const unknown = words.flatMap((word, index) => (WORDS.has(word) ? [] : [index + 1]));
  if (unknown.length > 0) {
    const which = unknown.length === 1 ? "word" : "words";
    return {
      ok: false,
      reason: `${which} ${unknown.join(", ")} of ${words.length} not in the BIP39 English word list (a typo?)`,
    };
  }
  if (words.length !== 24) return { ok: true, scheme: "bip39", words };
  if (!(await mnemonicValidate(words))) {
    return {
      ok: false,
      reason:
        "is not a valid 24-word TON wallet phrase (@ton/crypto rejects it: check the order and every word)",
    };
  }
  const keys = await mnemonicToPrivateKey(words);
  return { ok: true, scheme: "ton", words, publicKey: keys.publicKey };
}

/** What `auto` stands for when we derive an address: the current wallet contract, v5r1. */
export function effectiveWalletVersion(version: WalletVersion): ConcreteWalletVersion {
  return version === "auto" ? "v5r1" : version;
}

/** The wallet contract's address for `publicKey` on the basechain (workchain 0). */
export function deriveWalletAddress(publicKey: Buffer, version: ConcreteWalletVersion): Address {
  switch (version) {
    case "v5r1":
      return WalletContractV5R1.create({ workchain: 0, publicKey }).address;
    case "v4r2":
      return WalletContractV4.create({ workchain: 0, publicKey }).address;
    case "v3r2":
      return WalletContractV3R2.create({ workchain: 0, publicKey }).address;
  }
}

/** Parses a raw (`0:abcd...`) or friendly (`EQ...`/`UQ...`) address; undefined when it is neither. */
export function parseWalletAddress(text: string): Address | undefined {
  try {
    return Address.parse(text);
  } catch {
    return undefined;
  }
}

/** The form people see and paste into wallets for a plain wallet: `UQ...`. */
export function userFacingAddress(address: Address): string {
  return address.toString({ bounceable: false, urlSafe: true });
}
