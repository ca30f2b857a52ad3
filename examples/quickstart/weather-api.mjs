// A stand-in weather API for the quick start: node weather-api.mjs (port 8787, or $PORT); stop it with Ctrl-C.
import { createServer } from "node:http";

const port = Number(process.env.PORT ?? 8787);
createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname !== "/weather") return void res.writeHead(404).end("not found");
  const city = url.searchParams.get("city") ?? "";
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ city, sky: "light rain", tempC: 18 }));
}).listen(port, "127.0.0.1", () => console.error(`weather API on http://127.0.0.1:${port}/weather`));
