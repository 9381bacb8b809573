/**
 * Every request the sandbox received, in order, and the promises of `waitForRequests`, so tests
 * wait on the arrival of requests (an event) instead of sleeping.
 */
import type { RecordedRequest } from "./types.js";

/** Rejects `waitForRequests` promises still pending when the sandbox closes. */
export class SandboxClosedError extends Error {
  override readonly name = "SandboxClosedError";
}

interface Waiter {
  count: number;
  path: string | undefined;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class RequestRecorder {
  /** The one array handed out as `sandbox.requests`: it is emptied in place, never replaced. */
  readonly requests: RecordedRequest[] = [];
  private waiters: Waiter[] = [];
  private closed = false;

  /** Records a request and resolves the waiters it completes. */
  record(request: RecordedRequest): void {
    this.requests.push(request);
    this.waiters = this.waiters.filter((waiter) => {
      if (this.count(waiter.path) < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Resolves once `count` requests (to `path`, when given) were recorded. */
  waitFor(count: number, path?: string): Promise<void> {
    if (this.count(path) >= count) return Promise.resolve();
    if (this.closed) return Promise.reject(new SandboxClosedError("the sandbox is closed"));
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ count, path, resolve, reject });
    });
  }

  clear(): void {
    this.requests.length = 0;
  }

  /** Rejects every pending waiter; later waits reject at once. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters) {
      waiter.reject(new SandboxClosedError("the sandbox closed before the requests arrived"));
    }
    this.waiters = [];
  }

  private count(path: string | undefined): number {
    return path === undefined
      ? this.requests.length
      : this.requests.filter((request) => request.path === path).length;
  }
}
