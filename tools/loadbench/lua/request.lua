-- wrk script of the load benchmark (tools/loadbench/run.sh): one request of a contactsync binding per
-- call, configured by environment variables so one file serves every scenario and both servers.
--   LB_BINDING  soap11 | soap12 | get | post
--   LB_OP       ReadContact | TestCreateContact
--   LB_NS       the service namespace
--   LB_PATH     the endpoint path
--   LB_N        ReadContact: ids are LB_PREFIX followed by a 7-digit number in [0, LB_N)
--   LB_PREFIX   ReadContact: the id prefix the fill program used
--   LB_NONCE    TestCreateContact: makes ids unique across runs; each request gets a fresh id
-- done() prints one machine-readable LBRESULT line that run.sh parses.

local binding = os.getenv("LB_BINDING") or "soap11"
local op = os.getenv("LB_OP") or "ReadContact"
local ns = os.getenv("LB_NS") or "http://localhost:8080/contactsync/v1/"
local path = os.getenv("LB_PATH") or "/contactsync/v1/sync.asmx"
local n = tonumber(os.getenv("LB_N") or "100000")
local prefix = os.getenv("LB_PREFIX") or "c"
local nonce = os.getenv("LB_NONCE") or tostring(os.time())

local threads = {}
local next_tid = 1
function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
  table.insert(threads, thread)
end

local counter = 0
function init(args)
  math.randomseed(os.time() * 1000 + (tid or 0))
end

local function next_id()
  if op == "TestCreateContact" then
    counter = counter + 1
    return "w" .. nonce .. "-" .. (tid or 0) .. "-" .. counter
  end
  return string.format("%s%07d", prefix, math.random(0, n - 1))
end

-- The SOAP envelopes are written as a .NET client writes them (the golden request files' shape).
local function envelope(version12, inner)
  local env_ns, p = "http://schemas.xmlsoap.org/soap/envelope/", "soap"
  if version12 then env_ns, p = "http://www.w3.org/2003/05/soap-envelope", "soap12" end
  return '<?xml version="1.0" encoding="utf-8"?>\n' ..
    '<' .. p .. ':Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:' .. p .. '="' .. env_ns .. '">\n' ..
    '  <' .. p .. ':Body>\n' ..
    '    <' .. op .. ' xmlns="' .. ns .. '">' .. inner .. '</' .. op .. '>\n' ..
    '  </' .. p .. ':Body>\n' ..
    '</' .. p .. ':Envelope>\n'
end

local soap11_headers = { ["Content-Type"] = "text/xml; charset=utf-8", ["SOAPAction"] = '"' .. ns .. op .. '"' }
local soap12_headers = { ["Content-Type"] = 'application/soap+xml; charset=utf-8; action="' .. ns .. op .. '"' }
local form_headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }

function request()
  local id = next_id() -- ids are [A-Za-z0-9-], so they need no XML or URL escaping
  if binding == "soap11" then
    return wrk.format("POST", path, soap11_headers, envelope(false, "<id>" .. id .. "</id>"))
  elseif binding == "soap12" then
    return wrk.format("POST", path, soap12_headers, envelope(true, "<id>" .. id .. "</id>"))
  elseif binding == "get" then
    return wrk.format("GET", path .. "/" .. op .. "?id=" .. id)
  else
    return wrk.format("POST", path .. "/" .. op, form_headers, "id=" .. id)
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("LBRESULT requests=%d duration_us=%d rps=%.1f p50_us=%d p99_us=%d non2xx=%d socket=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
