import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import type { PurchaseIntent } from "../../src/ledger/types.js";
import { PURCHASE_CSV_COLUMNS, purchasesCsv } from "../../src/purchases/export-csv.js";
import { readCsv } from "../helpers/csv-reader.js";
import { testIntent } from "../helpers/intent.js";

const T0 = Date.UTC(2026, 10, 3, 9, 30);

function intent(overrides: Partial<PurchaseIntent> = {}): PurchaseIntent {
  return testIntent({
    id: "intent_aaaaaaaaaaaaaaaaaa",
    kind: "stars",
    recipient: "alice_friend",
    quantity: 50,
    paymentMethod: "usdt_ton",
    requester: { userId: 1002, chatId: 1002, chatType: "private" },
    status: "succeeded",
    createdAt: T0,
    expiresAt: T0 + 600_000,
    sentAt: T0 + 5_000,
    finishedAt: T0 + 6_000,
    balanceBefore: { ton: "100", usdt: "1000" },
    balanceBeforeAt: T0,
    response: { ok: true, secret_echo: "must-not-appear" },
    txHash: "abc123",
    cost: {
      measured: true,
      amount: "0.75",
      currency: "usdt",
      source: "balance_after",
      at: T0 + 7_000,
    },
    ...overrides,
  });
}

function column(row: string[] | undefined, name: (typeof PURCHASE_CSV_COLUMNS)[number]): string {
  return row?.[PURCHASE_CSV_COLUMNS.indexOf(name)] ?? "<missing>";
}

describe("the accountant's CSV", () => {
  it("reads back row for row with every field, times in UTC with the zone, and no raw body", async () => {
    const rows = [
      intent(),
      intent({
        id: "intent_bbbbbbbbbbbbbbbbbb",
        kind: "premium",
        quantity: 3,
        paymentMethod: "ton",
        requester: { userId: 1001, chatId: -1001000000001, chatType: "supergroup" },
        status: "delivered",
        txHash: undefined,
        outcomeDetail: 'timeout: no answer, "then" a comma, and\na line break',
        resolvedBy: 1001,
        resolvedAt: T0 + 60_000,
        cost: { measured: false, currency: "ton", reason: "other_purchase", at: T0 + 61_000 },
      }),
    ];
    const csv = await text(purchasesCsv(rows));
    expect(csv).not.toContain("must-not-appear");
    const records = readCsv(csv);
    expect(records[0]).toEqual([...PURCHASE_CSV_COLUMNS]);
    expect(records).toHaveLength(3);
    const [first, second] = [records[1], records[2]];
    expect(column(first, "created_at_utc")).toBe("2026-11-03T09:30:00.000Z");
    expect(column(first, "recipient_username")).toBe("alice_friend");
    expect(column(first, "cost")).toBe("0.75");
    expect(column(first, "cost_currency")).toBe("USDT");
    expect(column(first, "cost_measured_by")).toBe("balance_after");
    expect(column(first, "transaction_hash")).toBe("abc123");
    expect(column(first, "requested_by_user_id")).toBe("1002");
    expect(column(second, "requested_in_chat_id")).toBe("-1001000000001");
    expect(column(second, "gift")).toBe("premium");
    expect(column(second, "unit")).toBe("months");
    expect(column(second, "cost")).toBe("");
    expect(column(second, "cost_not_measured_because")).toBe("other_purchase");
    expect(column(second, "outcome_detail")).toBe(
      'timeout: no answer, "then" a comma, and\na line break',
    );
    expect(column(second, "settled_by_admin_id")).toBe("1001");
    expect(column(second, "settled_at_utc")).toBe("2026-11-03T09:31:00.000Z");
  });

  it("neutralises text a spreadsheet would run as a formula, full-width signs too", async () => {
    const hostile = [
      '=HYPERLINK("http://x")',
      "+1+2",
      "-2+3",
      "@SUM(A1)",
      "\t=1",
      "\r=1",
      "\uFF1D1+1",
      "\uFF0B1",
      "\uFF0D1",
      "\uFF20SUM(A1)",
    ];
    const csv = await text(
      purchasesCsv(
        hostile.map((detail, i) =>
          intent({ id: `intent_${i}`, status: "rejected", outcomeDetail: detail, txHash: detail }),
        ),
      ),
    );
    const records = readCsv(csv).slice(1);
    expect(records.map((row) => column(row, "outcome_detail"))).toEqual(
      hostile.map((detail) => `'${detail}`),
    );
    expect(records.map((row) => column(row, "transaction_hash"))).toEqual(
      hostile.map((detail) => `'${detail}`),
    );
    const plain = await text(
      purchasesCsv([intent({ outcomeDetail: "plain reason" }), intent({ outcomeDetail: "  =1" })]),
    );
    expect(column(readCsv(plain)[1], "outcome_detail")).toBe("plain reason");
    expect(column(readCsv(plain)[2], "outcome_detail")).toBe("'  =1");
  });

  it("a spreadsheet that splits on ';' finds no formula inside the service's cells", async () => {
    const detail = 'UPSTREAM; =HYPERLINK("http://x");+1;-1;@A1;\uFF1D1;\uFF20A1';
    const csv = await text(
      purchasesCsv([intent({ status: "rejected", outcomeDetail: detail, txHash: "ab;=1+1" })]),
    );
    // Read as the accountant's tool reads it: every text cell quoted, the words kept.
    const row = readCsv(csv)[1];
    expect(column(row, "outcome_detail")).toBe(
      "UPSTREAM; '=HYPERLINK(\"http://x\");'+1;'-1;'@A1;'\uFF1D1;'\uFF20A1",
    );
    expect(column(row, "transaction_hash")).toBe("ab;'=1+1");
    expect(csv).toContain(`"${"intent_aaaaaaaaaaaaaaaaaa"}"`);
    // Read as a ';'-separated locale would: no field it finds starts a formula.
    for (const line of csv.split(/\r?\n/)) {
      for (const field of line.split(";").slice(1)) {
        expect(field).not.toMatch(/^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/);
      }
    }
  });

  it("pulls rows from the iterator as they are read, not all at once", async () => {
    let pulled = 0;
    function* many(): Generator<PurchaseIntent> {
      for (let i = 0; i < 100_000; i++) {
        pulled++;
        yield intent({ id: `intent_${String(i).padStart(18, "0")}` });
      }
    }
    const stream = purchasesCsv(many());
    // Read the first chunk only, then stop: far fewer rows than the range may be built.
    const first = await stream[Symbol.asyncIterator]().next();
    expect(first.done).toBe(false);
    expect(String(first.value)).toContain("purchase_id");
    stream.destroy();
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(5_000);
  });
});
