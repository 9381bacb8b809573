import { describe, expect, it, onTestFinished } from "vitest";
import { createGiftServiceClient } from "../../src/service/client.js";
import { encodedForms, SecretScrubber, secretValues } from "../../src/service/secrets.js";
import { capturingLogger, sandboxForTest } from "../helpers/service.js";

const WORDS = Array.from({ length: 24 }, (_, i) => `canaryword${String(i).padStart(2, "0")}x`);
const CANARY = {
  mnemonic: WORDS.join(" "),
  cookie: "stel_ssid=CANARYSSID7f3a91; stel_token=CANARYTOKEN55b2",
  proxy: "http://canaryuser:CANARYPROXYPASS@proxy.invalid:8080",
  apiKey: "CANARYAPIKEY0c4d",
  walletVersion: "v5r1" as const,
  walletAddress: "UQ-not-a-secret",
  userAgent: "giftbot-canary-test",
};
const NEEDLES = [
  ...WORDS,
  "CANARYSSID7f3a91",
  "CANARYTOKEN55b2",
  "canaryuser",
  "CANARYPROXYPASS",
  "CANARYAPIKEY0c4d",
];

describe("secrets never leave the client", () => {
  it("runs every outcome class, retries and the quota with canary secrets, and finds none in any output", async () => {
    const sandbox = await sandboxForTest({ balance: { ton: "1", usdt: "2" } });
    const { logger, lines } = capturingLogger();
    const client = createGiftServiceClient({
      baseUrl: sandbox.url,
      credentials: CANARY,
      quota: { limit: 3, windowMs: 200 },
      timeouts: { headersMs: 100 },
      logger,
    });
    const seen: unknown[] = [];
    const record = async (call: Promise<unknown>) => {
      try {
        seen.push(await call);
      } catch (error) {
        seen.push(error, String(error), (error as Error).stack);
      }
    };
    const stars = () => client.buyStars({ username: "alice", amount: 50 });

    // Successes, rejections, invalid input.
    await record(client.getUserInfo("alice"));
    await record(client.getWalletBalance());
    await record(stars());
    await record(client.buyPremium({ username: "premium_pat", duration: 3 }));
    await record(client.buyStars({ username: "alice", amount: 1000 }));
    await record(client.buyStars({ username: "x", amount: 50 }));
    // A service that echoes the secrets back in its errors and bodies.
    const echo = {
      ok: false,
      error: `bad mnemonic ${CANARY.mnemonic}`,
      reason: `cookie ${CANARY.cookie} via ${CANARY.proxy}`,
      info: { key: CANARY.apiKey, [CANARY.apiKey]: "as a key" },
    };
    for (const status of [400, 200, 500]) {
      sandbox.injectFault({ type: "status", status, body: echo });
      await record(stars());
      sandbox.injectFault({ type: "status", status, body: echo });
      await record(client.getWalletBalance());
    }
    sandbox.injectFault({ type: "status", status: 400, body: `plain ${CANARY.mnemonic}` });
    await record(stars());
    // Every ambiguous and unavailable class, and bounded read retries.
    for (const fault of [
      { type: "drop" },
      { type: "malformed" },
      { type: "unconfirmed", executed: true },
      { type: "delay", ms: 3_000 },
    ] as const) {
      sandbox.injectFault(fault, { times: 2 });
      await record(stars());
      await record(client.getUserInfo("alice"));
    }
    sandbox.clearFaults();
    sandbox.injectFault(
      {
        type: "status",
        status: 429,
        body: { ...echo, retry_after: 0 },
        headers: { "retry-after": "0" },
      },
      { times: 4 },
    );
    await record(client.getWalletBalance());
    await record(stars());
    // Queued calls (the quota is 3 per 200 ms) and a cancelled one.
    const controller = new AbortController();
    await Promise.all([
      record(client.getUserInfo("alice", { onQueued: (ms) => seen.push(ms) })),
      record(stars()),
      record(
        client.getUserInfo("bobby", {
          signal: controller.signal,
          onQueued: () => controller.abort(),
        }),
      ),
    ]);
    // A wait hint beyond 60 s gives up at once (and holds the client, so it comes last).
    sandbox.injectFault({ type: "status", status: 503, body: { ok: false, flood_wait: 999 } });
    await record(client.getUserInfo("alice"));
    await client.close();
    await record(client.getUserInfo("alice"));
    // A configuration error about a secret.
    await record(
      Promise.resolve().then(() =>
        createGiftServiceClient({
          baseUrl: sandbox.url,
          credentials: { ...CANARY, cookie: `${CANARY.cookie}\n` },
        }),
      ),
    );

    expect(lines.length).toBeGreaterThan(20);
    const kinds = new Set(seen.map((o) => (o as { kind?: string }).kind).filter(Boolean));
    expect([...kinds].sort()).toEqual([
      "ambiguous",
      "invalid",
      "rate_limited",
      "rejected",
      "success",
      "unavailable",
    ]);
    // The echo reached the client, and was scrubbed.
    expect(JSON.stringify(seen)).toContain("[redacted]");
    const output = [
      ...lines,
      ...seen.map((item) => (typeof item === "string" ? item : JSON.stringify(item))),
    ].join("\n");
    for (const needle of NEEDLES) expect(output).not.toContain(needle);
    // The sandbox did receive them, so the test proves the client had them to leak.
    expect(sandbox.purchaseRequests()[0]?.headers.mnemonic).toBe(CANARY.mnemonic);
  });
});

describe("short secrets", () => {
  it("a short proxy password and cookie value echoed back are scrubbed as whole tokens", async () => {
    const sandbox = await sandboxForTest();
    const { logger, lines } = capturingLogger();
    const client = createGiftServiceClient({
      baseUrl: sandbox.url,
      credentials: {
        mnemonic: CANARY.mnemonic,
        cookie: "stel_ssid=Zq9; stel_token=CANARYTOKEN55b2",
        proxy: "http://pxu:P4ss@proxy.invalid:8080",
      },
      logger,
    });
    onTestFinished(() => client.close());
    sandbox.injectFault({
      type: "status",
      status: 400,
      body: {
        ok: false,
        error: "PROXY_AUTH_FAILED",
        reason: "user pxu with password P4ss refused; session Zq9 unknown",
        info: { ssid: "Zq9", password: "P4ss" },
      },
    });
    const outcome = await client.buyStars({ username: "alice", amount: 50 });
    expect(outcome).toMatchObject({
      kind: "rejected",
      detail:
        "PROXY_AUTH_FAILED: user [redacted] with password [redacted] refused; session [redacted] unknown",
      body: { info: { ssid: "[redacted]", password: "[redacted]" } },
    });
    const output = [JSON.stringify(outcome), ...lines].join("\n");
    for (const needle of ["Zq9", "P4ss", "pxu"]) expect(output).not.toContain(needle);
  });

  it("scrubs 3 to 5 character secrets only where they stand alone; shorter ones not at all", () => {
    const scrubber = new SecretScrubber(["abc", "x", "a.b", "longsecret"]);
    expect(scrubber.text("abc; abcdef xabc abc_1 (abc) a.b a-b x")).toBe(
      "[redacted]; abcdef xabc abc_1 ([redacted]) [redacted] a-b x",
    );
    expect(scrubber.text("mylongsecretword")).toBe("my[redacted]word");
    expect(scrubber.deep({ abc: ["abc", "abcd"] })).toEqual({
      "[redacted]": ["[redacted]", "abcd"],
    });
  });
});

describe("a wallet phrase echoed in pieces", () => {
  const phrase = "ribbon ocean about timber valley gadget orbit mixture";

  it("scrubs the phrase's words once three or more of them are echoed together", () => {
    const scrubber = new SecretScrubber([phrase], phrase);
    expect(
      scrubber.deep({ info: { words: ["timber", "Ocean", "ribbon"] }, note: "about" }),
    ).toEqual({ info: { words: ["[redacted]", "[redacted]", "[redacted]"] }, note: "[redacted]" });
    expect(scrubber.text("words: valley, orbit; gadget")).toBe(
      "words: [redacted], [redacted]; [redacted]",
    );
  });

  it("leaves ordinary text with one or two of the phrase's words alone", () => {
    const scrubber = new SecretScrubber([phrase], phrase);
    expect(scrubber.text("try again in about a minute: the ocean is calm")).toBe(
      "try again in about a minute: the ocean is calm",
    );
  });

  it("a service that lists the phrase's words back: none reach the outcome or the logs", async () => {
    const sandbox = await sandboxForTest();
    const { logger, lines } = capturingLogger();
    const client = createGiftServiceClient({
      baseUrl: sandbox.url,
      credentials: { mnemonic: CANARY.mnemonic, cookie: "stel_ssid=CANARYSSID77x" },
      logger,
    });
    onTestFinished(() => client.close());
    const words = CANARY.mnemonic.split(" ");
    sandbox.injectFault({
      type: "status",
      status: 400,
      body: { ok: false, error: "BAD_MNEMONIC", info: { words: [...words].reverse() } },
    });
    const outcome = await client.buyStars({ username: "alice", amount: 50 });
    expect(outcome.kind).toBe("rejected");
    const output = [JSON.stringify(outcome), ...lines].join("\n");
    for (const word of words) expect(output).not.toMatch(new RegExp(`\\b${word}\\b`));
  });
});

describe("secrets echoed back encoded", () => {
  // A proxy password written percent-encoded in the setting, as a URL requires.
  const PROXY_USER = "canaryproxyuser";
  const PROXY_PASS_DECODED = "CANARY@PROXY/PASS:77";
  const PROXY_PASS = encodeURIComponent(PROXY_PASS_DECODED);
  const SECRETS = {
    mnemonic: CANARY.mnemonic,
    cookie: "stel_ssid=CANARYSSID+9/x=; stel_token=CANARYTOKEN55b2",
    proxy: `http://${PROXY_USER}:${PROXY_PASS}@proxy.invalid:8080`,
    apiKey: "CANARYAPIKEY/0c4d+e",
  };
  const lowerCaseEscapes = (text: string) =>
    text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  const base64 = (text: string) => Buffer.from(text).toString("base64");
  const base64url = (text: string) => Buffer.from(text).toString("base64url");
  const plainSecrets = [
    SECRETS.mnemonic,
    "CANARYSSID+9/x=",
    "CANARYTOKEN55b2",
    PROXY_USER,
    PROXY_PASS_DECODED,
    PROXY_PASS,
    `${PROXY_USER}:${PROXY_PASS_DECODED}`,
    SECRETS.apiKey,
  ];
  /** Each secret in every form the echoes below use, and then some. */
  const needles = plainSecrets.flatMap((secret) => [
    secret,
    decodeURIComponent(secret),
    encodeURIComponent(secret),
    lowerCaseEscapes(encodeURIComponent(secret)),
    new URLSearchParams({ v: secret }).toString().slice(2),
    base64(secret),
    base64(secret).replace(/=+$/, ""),
    base64url(secret),
  ]);
  const echoes: Record<string, string> = {
    decoded: `proxy refused ${PROXY_USER}:${PROXY_PASS_DECODED} at http://${PROXY_USER}:${PROXY_PASS_DECODED}@proxy.invalid:8080`,
    encoded: `upstream=${encodeURIComponent(SECRETS.proxy)}&key=${encodeURIComponent(SECRETS.apiKey)}&ssid=${encodeURIComponent("CANARYSSID+9/x=")}`,
    encodedLowerCase: lowerCaseEscapes(encodeURIComponent(PROXY_PASS_DECODED)),
    formEncoded: new URLSearchParams({
      mnemonic: SECRETS.mnemonic,
      cookie: SECRETS.cookie,
    }).toString(),
    basicAuth: `Proxy-Authorization: Basic ${base64(`${PROXY_USER}:${PROXY_PASS_DECODED}`)}`,
    base64Each: [SECRETS.apiKey, SECRETS.cookie, SECRETS.mnemonic, PROXY_PASS_DECODED]
      .map(base64)
      .join(" "),
    base64Url: base64url(`${PROXY_PASS_DECODED}`),
    base64OfSentence: base64(`the session ${SECRETS.cookie} expired; key ${SECRETS.apiKey}`),
    base64OfEncoded: base64(encodeURIComponent(SECRETS.proxy)),
  };

  it.each(Object.keys(echoes))(
    "%s: scrubbed from the outcome (what the ledger stores and people see) and the logs",
    async (form) => {
      const echo = echoes[form] ?? "";
      const sandbox = await sandboxForTest();
      const { logger, lines } = capturingLogger();
      const client = createGiftServiceClient({
        baseUrl: sandbox.url,
        credentials: SECRETS,
        logger,
      });
      onTestFinished(() => client.close());
      const seen: unknown[] = [];
      // A refusal (detail shown to people), an ambiguous answer (stored as evidence), a raw
      // text body, and a read.
      sandbox.injectFault({
        type: "status",
        status: 400,
        body: { ok: false, error: "PROXY_FAILED", reason: echo, info: { echo, [echo]: 1 } },
      });
      seen.push(await client.buyStars({ username: "alice", amount: 50 }));
      sandbox.injectFault({
        type: "status",
        status: 400,
        body: { ok: false, unconfirmed: true, reason: echo },
      });
      seen.push(await client.buyPremium({ username: "bobby", duration: 3 }));
      sandbox.injectFault({ type: "status", status: 502, body: `Bad gateway: ${echo}` });
      seen.push(await client.buyStars({ username: "alice", amount: 50 }));
      sandbox.injectFault({ type: "status", status: 200, body: `not json ${echo}` });
      seen.push(await client.getWalletBalance());

      expect(seen.map((o) => (o as { kind: string }).kind)).toEqual([
        "rejected",
        "ambiguous",
        "ambiguous",
        "unavailable",
      ]);
      expect(seen[0]).toMatchObject({ detail: expect.stringContaining("[redacted]") });
      const output = [...seen.map((o) => JSON.stringify(o)), ...lines].join("\n");
      // JSON.stringify escapes nothing in these needles but quotes; check the raw strings too.
      const texts = [output, ...seen.map((o) => String((o as { detail?: string }).detail))];
      for (const needle of needles) {
        for (const text of texts) expect(text).not.toContain(needle);
      }
      // The sandbox received the real values, so the client had them to leak.
      expect(sandbox.purchaseRequests()[0]?.headers.proxy).toBe(SECRETS.proxy);
    },
  );

  it("encodedForms covers decoded, encoded (either case) and base64 forms", () => {
    const forms = encodedForms("p%2Fss@x");
    expect(forms).toEqual(
      expect.arrayContaining([
        "p%2Fss@x",
        "p/ss@x",
        "p%2fss@x",
        "p%2Fss%40x",
        "p%252Fss%40x",
        Buffer.from("p/ss@x").toString("base64"),
        Buffer.from("p/ss@x").toString("base64url"),
      ]),
    );
  });

  it("ordinary text, URLs and base64 without a secret are left alone", () => {
    const scrubber = new SecretScrubber(secretValues(SECRETS), SECRETS.mnemonic);
    const text = `see https://example.com/a%20b?q=1 token ${base64("nothing secret here")} ok`;
    expect(scrubber.text(text)).toBe(text);
  });
});
