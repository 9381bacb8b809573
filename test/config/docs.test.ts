import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { mnemonicNew } from "@ton/crypto";
import { describe, expect, it } from "vitest";
import { loadConfig, SECRET_VARIABLES, VARIABLES } from "../../src/config/index.js";

const ROOT = resolve(import.meta.dirname, "../..");
const example = readFileSync(join(ROOT, ".env.example"), "utf8");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const settings = readme.slice(readme.indexOf("## Settings"));

describe("the settings documentation", () => {
  it(".env.example lists every variable", () => {
    for (const name of VARIABLES) expect(example).toMatch(new RegExp(`^#? ?${name}=`, "m"));
  });

  it("README's Settings table lists every variable and the _FILE secrets", () => {
    for (const name of VARIABLES)
      expect(settings).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, "m"));
    for (const name of SECRET_VARIABLES) expect(settings).toContain(`\`${name}\``);
    expect(settings).toContain("NAME_FILE");
  });

  it(".env.example loads once a real mnemonic is added (its placeholders have valid shapes)", async () => {
    const words = await mnemonicNew(24);
    const config = await loadConfig(
      { WALLET_MNEMONIC: words.join(" ") },
      { envFile: join(ROOT, ".env.example") },
    );
    expect(config.telegram.token).toBe("123456:REPLACE_ME");
    expect(config.wallet.cookie).toBe("stel_ssid=REPLACE_ME");
  });
});
