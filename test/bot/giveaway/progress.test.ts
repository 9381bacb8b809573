/** The giveaway's progress message: at most one edit per interval, the last state always shown. */
import { describe, expect, it } from "vitest";
import { ProgressEditor, progressBar } from "../../../src/bot/features/giveaway/progress.js";
import { createTestClock } from "../../../tools/testing/clock.js";

function editor() {
  const clock = createTestClock(0);
  const edits: string[] = [];
  const timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  const progress = new ProgressEditor({
    minIntervalMs: 2_000,
    now: () => clock(),
    later: (run, ms) => {
      const timer = { at: clock() + ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    edit: (text) => {
      edits.push(text);
      return Promise.resolve();
    },
  });
  /** Moves time on, running the timers that came due. */
  const advance = (ms: number) => {
    clock.advance(ms);
    for (const timer of timers.splice(0)) {
      if (timer.cancelled) continue;
      if (timer.at <= clock()) timer.run();
      else timers.push(timer);
    }
  };
  return { progress, edits, advance };
}

describe("the progress editor", () => {
  it("edits at once, then folds what comes within 2 s into one edit with the latest text", async () => {
    const { progress, edits, advance } = editor();
    progress.show("1/10");
    await progress.settled();
    expect(edits).toEqual(["1/10"]);
    progress.show("2/10");
    progress.show("3/10");
    advance(1_999);
    await progress.settled();
    expect(edits).toEqual(["1/10"]);
    advance(1);
    await progress.settled();
    expect(edits).toEqual(["1/10", "3/10"]);
    advance(5_000);
    progress.show("4/10");
    await progress.settled();
    expect(edits).toEqual(["1/10", "3/10", "4/10"]);
  });

  it("shows the final state at once on flush, and never the same text twice", async () => {
    const { progress, edits, advance } = editor();
    progress.show("1/2");
    progress.show("2/2");
    await progress.flush();
    expect(edits).toEqual(["1/2", "2/2"]);
    advance(10_000);
    progress.show("2/2");
    await progress.flush();
    expect(edits).toEqual(["1/2", "2/2"]);
  });

  it("keeps going after an edit fails (Telegram busy): the next one is tried", async () => {
    const clock = createTestClock(0);
    const edits: string[] = [];
    const progress = new ProgressEditor({
      minIntervalMs: 2_000,
      now: () => clock(),
      later: () => () => undefined,
      edit: (text) => {
        edits.push(text);
        return text === "a" ? Promise.reject(new Error("429")) : Promise.resolve();
      },
    });
    progress.show("a");
    clock.advance(2_000);
    progress.show("b");
    await progress.flush();
    expect(edits).toEqual(["a", "b"]);
  });
});

describe("the progress editor, when Telegram is slow or refuses", () => {
  /** An editor whose edits wait until the test settles them. */
  function slowEditor(retryAfterMs?: (error: unknown) => number | undefined) {
    const clock = createTestClock(0);
    const timers: { at: number; run: () => void; cancelled: boolean }[] = [];
    const edits: { text: string; settle: (error?: Error) => void }[] = [];
    const progress = new ProgressEditor({
      minIntervalMs: 2_000,
      now: () => clock(),
      later: (run, ms) => {
        const timer = { at: clock() + ms, run, cancelled: false };
        timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
      edit: (text) =>
        new Promise<void>((resolve, reject) => {
          edits.push({
            text,
            settle: (error) => (error === undefined ? resolve() : reject(error)),
          });
        }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
    const advance = async (ms: number) => {
      clock.advance(ms);
      for (const timer of timers.splice(0)) {
        if (timer.cancelled) continue;
        if (timer.at <= clock()) timer.run();
        else timers.push(timer);
      }
      await Promise.resolve();
    };
    /** Lets the promise callbacks of a settled edit run. */
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    return { progress, edits, advance, tick };
  }

  it("starts no edit while one is under way, and then sends only the latest text", async () => {
    const { progress, edits, advance, tick } = slowEditor();
    progress.show("1/10");
    await advance(2_000);
    progress.show("2/10");
    await advance(2_000);
    progress.show("3/10");
    await advance(2_000);
    expect(edits.map((e) => e.text)).toEqual(["1/10"]);
    edits[0]?.settle();
    await tick();
    expect(edits.map((e) => e.text)).toEqual(["1/10", "3/10"]);
  });

  it("tries a text again after its edit failed, so the last state is still shown", async () => {
    const { progress, edits, advance, tick } = slowEditor();
    progress.show("5/5");
    edits[0]?.settle(new Error("Bad Gateway"));
    await tick();
    // Not on a timer of its own: a message deleted meanwhile is not edited forever.
    await advance(10_000);
    expect(edits).toHaveLength(1);
    const flushed = progress.flush();
    await tick();
    expect(edits.map((e) => e.text)).toEqual(["5/5", "5/5"]);
    edits[1]?.settle();
    await flushed;
  });

  it("waits the retry_after of a refused edit before the next one", async () => {
    const { progress, edits, advance, tick } = slowEditor((error) =>
      error instanceof Error && error.message === "flood" ? 30_000 : undefined,
    );
    progress.show("1/10");
    edits[0]?.settle(new Error("flood"));
    await tick();
    progress.show("2/10");
    await advance(2_000);
    await advance(27_000);
    expect(edits.map((e) => e.text)).toEqual(["1/10"]);
    await advance(1_000);
    expect(edits.map((e) => e.text)).toEqual(["1/10", "2/10"]);
  });
});

describe("the progress bar", () => {
  it("fills by share, is full only at the end, and copes with nothing to do", () => {
    expect(progressBar(0, 120)).toBe("░░░░░░░░░░");
    expect(progressBar(37, 120)).toBe("▓▓▓░░░░░░░");
    expect(progressBar(119, 120)).toBe("▓▓▓▓▓▓▓▓▓░");
    expect(progressBar(120, 120)).toBe("▓▓▓▓▓▓▓▓▓▓");
    expect(progressBar(0, 0)).toBe("▓▓▓▓▓▓▓▓▓▓");
  });
});
