-- wrk script of scripts/heavy.sh: POST /v1/snippets (or, with ROUTE=annotate, POST
-- /v1/annotate) with a document of 1 MiB (1,048,000
-- bytes: paragraphs of news sentences separated by blank lines; the query terms occur in
-- every paragraph), and a RESULT line with requests/s, latency percentiles (ms) and the
-- answers by status (2xx, 408, 413, 503, other) and socket errors.
local para = "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries. " ..
   "The men, aged 23 and 31, were released on bail on Wednesday and will appear in court next month. " ..
   "A spokesman for the city said that the number of burglaries had fallen by a third since the spring. " ..
   "Residents of the north side, where most of the break-ins took place, welcomed the arrests."
local parts, n = {}, 0
while n + #para + 2 <= 1048000 do
   parts[#parts + 1] = para
   n = n + #para + 2
end
local doc = table.concat(parts, "\\n\\n") .. string.rep(" ", 1048000 - n + 2)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
if os.getenv("ROUTE") == "annotate" then -- POST /v1/annotate of the same document
   wrk.body = '{"id":"heavy","text":"' .. doc .. '"}'
else
   wrk.body = '{"document":"' .. doc .. '","query":["police","burglary"],"budget":80,"n":3}'
end

local threads = {}
function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   counts = { ok = 0, s408 = 0, s413 = 0, s503 = 0, other = 0 }
end

function response(status, headers, body)
   if status < 300 then counts.ok = counts.ok + 1
   elseif status == 408 then counts.s408 = counts.s408 + 1
   elseif status == 413 then counts.s413 = counts.s413 + 1
   elseif status == 503 then counts.s503 = counts.s503 + 1
   else counts.other = counts.other + 1 end
end

function done(summary, latency, requests)
   local c = { ok = 0, s408 = 0, s413 = 0, s503 = 0, other = 0 }
   for _, t in ipairs(threads) do
      local tc = t:get("counts")
      for k, v in pairs(tc) do c[k] = c[k] + v end
   end
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d seconds=%.1f rps=%.1f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f status_2xx=%d status_408=%d status_413=%d status_503=%d status_other=%d socket_errors=%d (connect %d, read %d, write %d, timeout %d)\n",
      summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
      latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
      c.ok, c.s408, c.s413, c.s503, c.other,
      e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write, e.timeout))
end
