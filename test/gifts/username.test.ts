import { describe, expect, it } from "vitest";
import { parseUsername } from "../../src/gifts/username.js";

describe("parseUsername", () => {
  it("takes @name, name and t.me links, and every name it returns is one the client sends", () => {
    const inputs = [
      "@bob_gifts",
      " bob_gifts ",
      "t.me/bob_gifts",
      "https://telegram.dog/bob_gifts?start=1",
    ];
    for (const input of inputs) {
      const name = parseUsername(input);
      expect(name, input).toBe("bob_gifts");
    }
  });

  it("refuses what the service would refuse", () => {
    for (const bad of ["@@bob_gifts", "bob", "1bob_gifts", "bob-gifts", "t.me/", "a".repeat(33)]) {
      expect(parseUsername(bad), bad).toBeUndefined();
    }
  });
});
