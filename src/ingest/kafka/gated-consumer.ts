/**
 * A Kafka consumer whose group (re)join can be held back. In the classic group protocol the
 * coordinator waits (up to the rebalance timeout) for every member to send JoinGroup before it
 * hands out partitions, so a member that holds its JoinGroup until it has committed what it
 * indexed guarantees the next owner of a partition starts after it: Java's onPartitionsRevoked.
 * @platformatic/kafka 1.x rejoins by itself as soon as a heartbeat reports a rebalance and offers
 * no revoke callback, so the hold is placed where every JoinGroup request is built: the client's
 * API lookup (`kGetApi`, exported by the package for subclasses).
 */
import { Consumer, kGetApi } from '@platformatic/kafka';
import type { API, Callback } from '@platformatic/kafka';

/** A consumer (raw Buffer keys and values) whose JoinGroup requests wait while the gate is closed. */
export class GatedConsumer extends Consumer {
  private gate: Promise<void> = Promise.resolve();
  private openGate: (() => void) | null = null;

  /** Holds every JoinGroup until {@link release}. Idempotent. */
  hold(): void {
    if (this.openGate !== null) return;
    this.gate = new Promise((resolve) => { this.openGate = resolve; });
  }

  /** Lets held and future JoinGroup requests go. */
  release(): void {
    const open = this.openGate;
    this.openGate = null;
    open?.();
  }

  /** Whether JoinGroup requests are being held. */
  get held(): boolean {
    return this.openGate !== null;
  }

  override [kGetApi]<A extends unknown[], R>(name: string, callback: Callback<API<A, R>>): void {
    if (name !== 'JoinGroup' || this.openGate === null) {
      super[kGetApi](name, callback);
      return;
    }
    void this.gate.then(() => { super[kGetApi](name, callback); });
  }
}
