// The target shape of the header benches (issue #3): an identity with 11 flat
// fields and 10 claims (21 headers) and 8 arguments, 7 of them scalar. Shared by
// headers.bench.ts and headers-cold.bench.ts so that both measure the same call.
import type { Identity } from "../src/headers/index.js";

export const identity: Identity = {
  agentName: "support-agent",
  namespace: "prod",
  sessionId: "2f1c9a7e-5b8d-4c3a-9e61-0d2b7f4a8c15",
  requestId: "9b3e6d1a-7c2f-4e8b-a5d0-3f1c6b9e2a47",
  userId: "u-7f3a9c",
  subjectId: "u-7f3a9c",
  userEmail: "alice@example.com",
  origin: "oidc",
  workspace: "acme",
  provider: "claude",
  model: "claude-sonnet",
  claims: {
    tier: "gold",
    role: "admin,editor",
    customer_id: "cust-123",
    region: "eu-west-1",
    org: "acme",
    team: "payments",
    plan: "enterprise",
    locale: "en-GB",
    email_verified: "true",
    groups: "ops,billing",
  },
};

export const args = {
  customer_id: "cust-123",
  query: "refund status for order",
  limit: 25,
  page: 1,
  include_archived: false,
  amount: 1234567.5,
  currency: "EUR",
  filters: { status: ["open", "pending"] },
};
