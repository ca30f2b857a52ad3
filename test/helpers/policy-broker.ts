// A fake ToolPolicy decision broker on node:http (runtime-tools.md §3.4, §3.8):
// it records every request with its JSON body decoded, and answers with a
// fixed decision, a status, raw text, or nothing at all.
import type { IncomingMessage } from "node:http";
import { startHttpServer, type TestServer } from "./http-server.js";

export interface CapturedDecisionRequest {
  readonly method: string;
  readonly url: string;
  readonly contentType: string | undefined;
  readonly headers: IncomingMessage["headers"];
  /** The raw body text. */
  readonly text: string;
  /** The body decoded: `{ headers, body, identity }`. */
  readonly json: { headers: Record<string, string>; body: unknown; identity: unknown };
}

/** What the broker answers: a decision object (200 JSON), or `{ status, body }`, or "hang" (never answers). */
export type BrokerAnswer = object | { readonly status: number; readonly body: string } | "hang";

export interface FakeBroker {
  readonly url: string;
  readonly server: TestServer;
  readonly decisions: CapturedDecisionRequest[];
  answer(answer: BrokerAnswer): void;
  close(): Promise<void>;
}

export async function startFakeBroker(initial: BrokerAnswer = { allow: true }): Promise<FakeBroker> {
  let current = initial;
  const decisions: CapturedDecisionRequest[] = [];
  const server = await startHttpServer((req, res) => {
    const text = req.bodyBytes.toString("utf8");
    decisions.push({
      method: req.method ?? "",
      url: req.url ?? "",
      contentType: req.headers["content-type"],
      headers: req.headers,
      text,
      json: JSON.parse(text) as CapturedDecisionRequest["json"],
    });
    const answer = current;
    if (answer === "hang") return;
    if ("status" in answer && "body" in answer && typeof answer.status === "number") {
      res.statusCode = answer.status;
      res.end(answer.body);
      return;
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(answer));
  });
  return {
    url: server.url,
    server,
    decisions,
    answer(answer) {
      current = answer;
    },
    close: () => server.close(),
  };
}

/** A URL on 127.0.0.1 where nothing listens (a server was started there, then closed). */
export async function closedPortUrl(): Promise<string> {
  const s = await startHttpServer();
  await s.close();
  return s.url;
}

/** Waits (without advancing any clock) until `predicate` holds. */
export async function until(predicate: () => boolean, what: string, maxTurns = 200_000): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for ${what}`);
}
