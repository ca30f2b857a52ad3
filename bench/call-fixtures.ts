// The tool call the end-to-end benchmarks (http, go, grpc, inflight, profile) make: one
// identity with three claims, the agent, the arguments, and the weather http handler.
import { loadToolRegistry, type ToolRegistry } from "../src/manifest/index.js";
import type { Identity } from "../src/headers/index.js";

export const identity: Identity = {
  agentName: "support-agent",
  namespace: "prod",
  sessionId: "2f1c9a7e-5b8d-4c3a-9e61-0d2b7f4a8c15",
  requestId: "9b3e6d1a-7c2f-4e8b-a5d0-3f1c6b9e2a47",
  userId: "u-7f3a9c",
  userEmail: "alice@example.com",
  claims: { tier: "gold", region: "eu-west-1", team: "payments" },
};
export const agent = { name: "support-agent", namespace: "prod", provider: "claude", model: "claude-sonnet" };
export const ARGS = '{"city":"Paris","units":"metric","days":3}';

/** The `get_weather` http handler, POST to `url`. */
export function weatherRegistry(url: string): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: weather-api
    type: http
    tool: { name: get_weather, description: Current weather and forecast, inputSchema: { type: object } }
    httpConfig:
      endpoint: ${url}
      method: POST
`);
}

/** `get_weather` with a typical schema (a required string, an enum, an integer with bounds), POST to `url`: the turn benchmarks' tool. */
export function turnWeatherRegistry(url: string): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: weather-api
    type: http
    tool:
      name: get_weather
      description: Current weather and forecast
      inputSchema:
        type: object
        properties:
          city: { type: string, minLength: 1 }
          units: { type: string, enum: [metric, imperial] }
          days: { type: integer, minimum: 1, maximum: 14 }
          i: { type: integer }
        required: [city]
    httpConfig:
      endpoint: ${url}
      method: POST
`);
}
