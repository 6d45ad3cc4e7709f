-- wrk script of scripts/load.sh: POST /v1/compress with one 17-word sentence given as raw
-- text, so that every request is tokenized, tagged, parsed and compressed by VERTEX
-- ADDITION_LR, and a RESULT line that scripts/load.sh collects: requests/s, latency
-- percentiles (ms) and errors (connect, read, write and timeout errors, and answers with a
-- status of 400 or more).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
-- KEY, when set, is sent as "Authorization: Bearer KEY" (scripts/authload.sh).
local key = os.getenv("KEY")
if key and key ~= "" then
   wrk.headers["Authorization"] = "Bearer " .. key
end
wrk.body = '{"id":"1","text":"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.","query":["police","Syracuse"],"budget":40}'

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d seconds=%.1f rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f errors=%d (connect %d, read %d, write %d, timeout %d, status %d)\n",
      summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
      latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
      latency.max / 1000, e.connect + e.read + e.write + e.timeout + e.status,
      e.connect, e.read, e.write, e.timeout, e.status))
end
