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
  /** The call's id, tool and input: a model may give two different calls one id, and they must stay two calls. */
  readonly key: string;
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

  /** The gate's answer for each call the AI SDK asked `needsApproval` of, by call id and tool, until it runs. */
  private readonly asked = new Map<string, boolean>();

  constructor(
    private readonly clientNames: ReadonlySet<string>,
    private readonly gate: ((call: { readonly id: string; readonly name: string; readonly text: string }) => TurnApprovalRequest | undefined) | undefined = undefined,
  ) {}

  /** The AI SDK's `needsApproval` of a server tool: the turn's gate. */
  needsApproval(callId: string, name: string, input: unknown): boolean {
    const held = this.gate?.({ id: callId, name, text: JSON.stringify(input ?? {}) ?? "{}" }) !== undefined;
    this.asked.set(`${callId}\u0000${name}`, held);
    return held;
  }

  /**
   * Whether a call the AI SDK now executes was held for approval: it runs only
   * once approved. A call held by another tool set (the app's history carried
   * the approval) is recognised by asking the gate again.
   */
  approved(callId: string, name: string, text: string): boolean {
    if (this.gate === undefined) return false;
    const key = `${callId}\u0000${name}`;
    const held = this.asked.get(key);
    if (held !== undefined) {
      this.asked.delete(key);
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

  /** The AI SDK's signal of the calls in flight (for the executor wrapper), by call id, with the slots using it. */
  private readonly signals = new Map<string, { readonly signal: AbortSignal; slots: number }>();

  /** The AI SDK's signal of a call in flight (for the executor wrapper). */
  signalOf(callId: string): AbortSignal | undefined {
    return this.signals.get(callId)?.signal;
  }

  /** Adds a call to the next round (once per call: its id, its tool and its input). */
  collect(callId: string, name: string, input: unknown, signal: AbortSignal | undefined): Slot {
    const key = `${callId}\u0000${name}\u0000${JSON.stringify(input ?? {}) ?? ""}`;
    const known = this.slots.get(key);
    if (known !== undefined) return known;
    if (signal !== undefined) {
      const known = this.signals.get(callId);
      if (known === undefined) this.signals.set(callId, { signal, slots: 1 });
      else known.slots++;
    }
    let resolve!: (end: CallEnd) => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<CallEnd>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A client call's slot is never awaited by an execute: keep its rejection handled.
    done.catch(() => undefined);
    const slot: Slot = { key, call: { id: callId, name, arguments: (input ?? {}) as JsonValue }, executing: false, signal, done, resolve, reject };
    this.slots.set(key, slot);
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
    for (const s of this.collected) if (!slots.includes(s)) this.forget(s);
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
        this.forget(s);
        s.reject(e);
      }
      return;
    }
    // Each call's end, by id and tool, in the round's order: two calls the model gave one id each get their own.
    const ends = new Map<string, CallEnd[]>();
    const add = (id: string, name: string, end: CallEnd): void => {
      const key = `${id}\u0000${name}`;
      const list = ends.get(key);
      if (list === undefined) ends.set(key, [end]);
      else list.push(end);
    };
    for (const m of round.messages) add(m.callId, m.name, { kind: "message", message: m });
    for (const p of round.pending) {
      add(p.callId, p.name, { kind: "pending" });
      this.pendingCalls.push(p);
    }
    for (const s of slots) {
      this.forget(s);
      const end = ends.get(`${s.call.id}\u0000${s.call.name}`)?.shift() ?? { kind: "dropped" };
      if (end.kind === "message" && this.clientNames.has(s.call.name)) this.answered.push(end.message);
      s.resolve(end);
    }
  }

  /** Drops a settled slot; its id's signal stays while another slot of that id (another call the model gave it) is in flight. */
  private forget(slot: Slot): void {
    if (!this.slots.delete(slot.key) || slot.signal === undefined) return;
    const known = this.signals.get(slot.call.id);
    if (known !== undefined && --known.slots === 0) this.signals.delete(slot.call.id);
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
