// Drives createTurn().run() over an in-memory executor (no I/O): the PromptKit
// stage alone, for a CPU profile of what a round adds to the executor's calls.
// Not part of `npm run bench`'s table, but compiled with it: profile the
// compiled file.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-turn.js [rounds]
// then: node bench/profile-summary.mjs /tmp/prof/<file>.cpuprofile
import { createTurn, type TurnExecutor } from "../src/turn/index.js";
import { turnWeatherRegistry } from "./call-fixtures.js";

const rounds = Number(process.argv[2] ?? 50_000);
const RESPONSE = '{"city":"Paris","temperature":21.5,"unit":"C","forecast":[{"day":1,"high":23},{"day":2,"high":19}]}';
const registry = turnWeatherRegistry("http://127.0.0.1:9/v1/weather");
const calls = Array.from({ length: 10 }, (_, i) => ({ id: `call-${i}`, name: "get_weather", arguments: `{"city":"Paris","units":"metric","days":3,"i":${i}}` }));
const memory: TurnExecutor = {
  tools: registry.tools,
  execute: async (_call, _ctx, hooks) => {
    hooks?.recordResult(RESPONSE);
    return { status: "success", resultJson: RESPONSE };
  },
  completeClientCall: () => ({ status: "success", resultJson: "{}" }),
};
for (let i = 0; i < 2_000; i++) await createTurn(memory).run(calls);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < rounds; i++) await createTurn(memory).run(calls);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
console.log(`${rounds} rounds of 10 calls: ${Math.round((ms * 1e6) / rounds / 10)} ns/call wall, ${Math.round(((cpu.user + cpu.system) * 1e3) / rounds / 10)} ns/call CPU`);
