// One model turn under the AI SDK. The AI SDK runs each tool's `execute` on
// its own, in parallel; the stage needs a round's calls together (the
// identical-call guard, the parallel limit, the results in call order). So the
// calls of one step are collected first and run as one round of one turn:
// generateText calls every tool's `onInputAvailable` (client tools too), in
// the model's order and before any `execute`, so the collection is complete
// when the first `execute` waits for its result. The round starts one
// macrotask after its first call arrives (setImmediate), so that streamText,
// which starts each call as it streams in, still groups the calls that arrive
// together; a call arriving later runs in the next round, after this one.
import { OmniaToolsError, type JsonValue } from "../core/index.js";
import type { ClientToolRequest, ClientToolResult } from "../client-tools/index.js";
import { TurnError, type Turn, type TurnApprovalRequest, type TurnCall, type TurnExecutor, type TurnMessage } from "../turn/index.js";

/** How one collected call ended. @internal Does not follow semver. */
export type CallEnd = { readonly kind: "message"; readonly message: TurnMessage } | { readonly kind: "pending" } | { readonly kind: "dropped" };

interface Slot {
  readonly call: TurnCall;
  /** The AI SDK called `execute` for it (a server call runs only then). */
  executing: boolean;
  readonly signal: AbortSignal | undefined;
  readonly done: Promise<CallEnd>;
  resolve(end: CallEnd): void;
  reject(error: unknown): void;
}

/**
 * The state behind one AI SDK tool set: the turn, the calls collected for the
 * next round, and the client calls handed back.
 * @internal Does not follow semver.
 */
export class AiSdkTurn {
  private readonly slots = new Map<string, Slot>();
  private collected: Slot[] = [];
  private scheduled = false;
  private tail: Promise<void> = Promise.resolve();
  private readonly pendingCalls: ClientToolRequest[] = [];
  /** Handed-back (client) calls that the stage answered itself: their results go back with the client's answers. */
  private readonly answered: TurnMessage[] = [];
  private failure: unknown;
  private turnRef: Turn | undefined;

  /** The gate's answer for each call the AI SDK asked `needsApproval` of, by call id, until it runs. */
  private readonly asked = new Map<string, boolean>();

  constructor(
    private readonly clientNames: ReadonlySet<string>,
    private readonly gate: ((call: { readonly id: string; readonly name: string; readonly text: string }) => TurnApprovalRequest | undefined) | undefined = undefined,
  ) {}

  /** The AI SDK's `needsApproval` of a server tool: the turn's gate. */
  needsApproval(callId: string, name: string, input: unknown): boolean {
    const held = this.gate?.({ id: callId, name, text: JSON.stringify(input ?? {}) ?? "{}" }) !== undefined;
    this.asked.set(callId, held);
    return held;
  }

  /**
   * Whether a call the AI SDK now executes was held for approval: it runs only
   * once approved. A call held by another tool set (the app's history carried
   * the approval) is recognised by asking the gate again.
   */
  approved(callId: string, name: string, text: string): boolean {
    if (this.gate === undefined) return false;
    const held = this.asked.get(callId);
    if (held !== undefined) {
      this.asked.delete(callId);
      return held;
    }
    return this.gate({ id: callId, name, text }) !== undefined;
  }

  /** The turn, set once it exists (the turn's executor needs this object first). */
  attach(turn: Turn): void {
    this.turnRef = turn;
  }

  get turn(): Turn {
    if (this.turnRef === undefined) throw new OmniaToolsError("omnia-tools/ai-sdk: the turn is not attached");
    return this.turnRef;
  }

  /** The AI SDK's signal of a call in flight (for the executor wrapper). */
  signalOf(callId: string): AbortSignal | undefined {
    return this.slots.get(callId)?.signal;
  }

  /** Adds a call to the next round (once per call id). */
  collect(callId: string, name: string, input: unknown, signal: AbortSignal | undefined): Slot {
    const known = this.slots.get(callId);
    if (known !== undefined) return known;
    let resolve!: (end: CallEnd) => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<CallEnd>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A client call's slot is never awaited by an execute: keep its rejection handled.
    done.catch(() => undefined);
    const slot: Slot = { call: { id: callId, name, arguments: (input ?? {}) as JsonValue }, executing: false, signal, done, resolve, reject };
    this.slots.set(callId, slot);
    this.collected.push(slot);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.enqueueRound();
      });
    }
    return slot;
  }

  /** The text the model gets for a server call; rejects with what the round threw. */
  async result(callId: string, name: string, input: unknown, signal: AbortSignal | undefined): Promise<string> {
    const slot = this.collect(callId, name, input, signal);
    slot.executing = true;
    const end = await slot.done;
    // A server call always ends as a message; anything else is a stage that changed under us.
    return end.kind === "message" ? end.message.content : "";
  }

  /** Waits until every collected call has run, then lists the client calls awaiting an answer. */
  async clientCalls(): Promise<readonly ClientToolRequest[]> {
    for (;;) {
      // A round already scheduled on setImmediate then finds nothing left to run.
      if (this.collected.length > 0) this.enqueueRound();
      const tail = this.tail;
      await tail;
      if (this.tail === tail && this.collected.length === 0) break;
    }
    return [...this.pendingCalls];
  }

  /**
   * The tool results of the handed-back calls: first those the stage answered
   * itself (a client call that failed its checks), then each client answer.
   */
  complete(results: readonly ClientToolResult[]): { readonly callId: string; readonly name: string; readonly content: string }[] {
    // An answer to a call that is not pending throws before any answer is recorded.
    const unknown = results.find((r) => !this.pendingCalls.some((p) => p.callId === r?.callId));
    if (unknown !== undefined) this.turn.complete(unknown);
    const out: { callId: string; name: string; content: string }[] = [];
    for (const m of this.answered.splice(0)) out.push({ callId: m.callId, name: m.name, content: m.content });
    for (const r of results) {
      const c = this.turn.complete(r);
      const i = this.pendingCalls.findIndex((p) => p.callId === r.callId);
      if (i >= 0) this.pendingCalls.splice(i, 1);
      out.push({ callId: c.callId, name: c.name, content: c.content });
    }
    return out;
  }

  /** The error that ended the turn, if one did. */
  get failed(): unknown {
    return this.failure;
  }

  private enqueueRound(): void {
    // A server call the AI SDK announced but did not execute (a finish reason that allows no tool
    // execution, an approval) is not run: were its execute to come later, it is collected again.
    const slots = this.collected.filter((s) => s.executing || this.clientNames.has(s.call.name));
    for (const s of this.collected) if (!slots.includes(s)) this.slots.delete(s.call.id);
    this.collected = [];
    if (slots.length === 0) return;
    this.tail = this.tail.then(() => this.runRound(slots));
  }

  private async runRound(slots: readonly Slot[]): Promise<void> {
    let round;
    try {
      round = await this.turn.run(slots.map((s) => s.call));
    } catch (e) {
      if (e instanceof TurnError) this.failure = e;
      for (const s of slots) {
        this.slots.delete(s.call.id);
        s.reject(e);
      }
      return;
    }
    const byId = new Map<string, CallEnd>();
    for (const m of round.messages) byId.set(m.callId, { kind: "message", message: m });
    for (const p of round.pending) {
      byId.set(p.callId, { kind: "pending" });
      this.pendingCalls.push(p);
    }
    for (const s of slots) {
      this.slots.delete(s.call.id);
      const end = byId.get(s.call.id) ?? { kind: "dropped" };
      if (end.kind === "message" && this.clientNames.has(s.call.name)) this.answered.push(end.message);
      s.resolve(end);
    }
  }
}

/**
 * The executor the turn runs on: the host's, with each call's context carrying
 * the AI SDK's abort signal of that call beside the host's own.
 * @internal Does not follow semver.
 */
export function signalledExecutor<Context extends { readonly signal?: AbortSignal }>(executor: TurnExecutor<Context>, state: AiSdkTurn): TurnExecutor<Context> {
  return {
    execute(call, ctx, given) {
      // The record of a call the AI SDK ran after its approval says so.
      const hooks = given !== undefined && state.approved(call.id, call.name, call.arguments) ? { recordResult: given.recordResult, approval: "approved" as const } : given;
      const sdk = state.signalOf(call.id);
      if (sdk === undefined) return executor.execute(call, ctx, hooks);
      const own = ctx?.signal;
      const signal = own === undefined || own === sdk ? sdk : AbortSignal.any([own, sdk]);
      return executor.execute(call, { ...ctx, signal } as Context, hooks);
    },
    completeClientCall: (result) => executor.completeClientCall(result),
    get tools() {
      return executor.tools;
    },
  };
}
