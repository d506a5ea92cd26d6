// A short agent round trip using only the built package (dist/):
//   MEMFOREST_URL=http://127.0.0.1:8420 MEMFOREST_API_KEY=mf_... node examples/quickstart.mjs
import { MemForestClient, NotFoundError } from "../dist/index.js";

const memory = new MemForestClient({ baseUrl: process.env.MEMFOREST_URL, apiKey: process.env.MEMFOREST_API_KEY });

const job = await memory.addMessages(
  "assistant-notes",
  [
    { role: "user", name: "Amara", content: "I moved to Nairobi in June and joined a cycling club there." },
    { role: "assistant", content: "Welcome to Nairobi! How is the club?" },
  ],
  { wait: 30 },
);
console.log(`ingest: ${job.state}`);

const answer = await memory.query("assistant-notes", "Where does Amara live?", { topK: 3 });
const top = answer.evidence.find((item) => item.fact_id);
if (!top) throw new Error("no fact in the evidence");
console.log(`top evidence: ${top.text} (${top.time})`);

const corrected = await memory.correctFact("assistant-notes", top.fact_id, "Amara moved to Mombasa in June.");
console.log(`corrected: fact ${corrected.id} says ${corrected.text}`);

await memory.deleteFact("assistant-notes", corrected.id);
try {
  await memory.getFact("assistant-notes", corrected.id);
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  console.log(`deleted: fact ${corrected.id} is gone`);
}
