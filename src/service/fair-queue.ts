/**
 * One priority's queue, served round-robin by owner (docs/service-contract.md §6): each owner
 * has a lane of their own requests in arrival order, and the lanes take turns, one request each.
 * One person's burst therefore waits behind everyone else's next request instead of in front of
 * it. A request without an owner gets a lane of its own, so without owners this is first come,
 * first served.
 */

/** An owner's key (a person id, opaque), or a unique symbol for a request without an owner. */
export type LaneKey = string | symbol;

interface Lane<T> {
  key: LaneKey;
  items: T[];
}

export class FairQueue<T> {
  /** The lanes in turn order: the head is served next, then goes to the back if not empty. */
  private ring: Lane<T>[] = [];
  private readonly lanes = new Map<LaneKey, Lane<T>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds an item at the end of its owner's lane; a new lane takes the last turn. */
  push(key: LaneKey, item: T): void {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, items: [] };
      this.lanes.set(key, lane);
      this.ring.push(lane);
    }
    lane.items.push(item);
    this.count++;
  }

  /**
   * Puts `item` in place of every queued item of the owner, keeping the owner's turn (replacing
   * neither costs nor gains a place). Returns the items replaced, oldest first.
   */
  replace(key: LaneKey, item: T): T[] {
    const lane = this.lanes.get(key);
    if (!lane) {
      this.push(key, item);
      return [];
    }
    const replaced = lane.items;
    lane.items = [item];
    this.count += 1 - replaced.length;
    return replaced;
  }

  /** The next item: the head lane's oldest; that lane then goes to the back of the turns. */
  shift(): T | undefined {
    const lane = this.ring.shift();
    if (!lane) return undefined;
    const item = lane.items.shift();
    this.count--;
    if (lane.items.length > 0) this.ring.push(lane);
    else this.lanes.delete(lane.key);
    return item;
  }

  /** Removes one item wherever it waits; false when it is not queued. */
  remove(item: T): boolean {
    for (const lane of this.ring) {
      const index = lane.items.indexOf(item);
      if (index === -1) continue;
      lane.items.splice(index, 1);
      this.count--;
      if (lane.items.length === 0) this.dropLane(lane);
      return true;
    }
    return false;
  }

  /** Empties the queue, returning every item in turn order. */
  drain(): T[] {
    const items: T[] = [];
    for (let item = this.shift(); item !== undefined; item = this.shift()) items.push(item);
    return items;
  }

  /**
   * How many queued items are served before `item`: the k-th item of its lane goes after k
   * turns of every lane ahead of it and after k - 1 turns of every lane behind it, each lane
   * giving at most what it holds.
   */
  positionOf(item: T): number {
    const laneIndex = this.ring.findIndex((lane) => lane.items.includes(item));
    if (laneIndex === -1) return this.count;
    const turns = this.ring[laneIndex]?.items.indexOf(item) ?? 0;
    let ahead = turns;
    this.ring.forEach((lane, index) => {
      if (index < laneIndex) ahead += Math.min(lane.items.length, turns + 1);
      if (index > laneIndex) ahead += Math.min(lane.items.length, turns);
    });
    return ahead;
  }

  /** The oldest queued item of an owner, if any. */
  find(key: LaneKey): T | undefined {
    return this.lanes.get(key)?.items[0];
  }

  /** Queued items per owner key, anonymous lanes included. */
  lengths(): { key: LaneKey; queued: number }[] {
    return this.ring.map((lane) => ({ key: lane.key, queued: lane.items.length }));
  }

  private dropLane(lane: Lane<T>): void {
    this.lanes.delete(lane.key);
    this.ring = this.ring.filter((other) => other !== lane);
  }
}
