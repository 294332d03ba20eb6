var l=class extends Error{name="ClickHouseError"};function g(t,s=3e4){let e={"content-type":"text/plain; charset=utf-8"};t.username&&(e["X-ClickHouse-User"]=decodeURIComponent(t.username)),t.password&&(e["X-ClickHouse-Key"]=decodeURIComponent(t.password));let r=new URL(t.href);return r.username="",r.password="",{async run(o,i){let d=new URL(r.href);i!==void 0&&d.searchParams.set("query",o);let a;try{a=await fetch(d,{method:"POST",headers:e,body:i!==void 0?i:o,signal:AbortSignal.timeout(s)})}catch(p){throw new l(`cannot reach ClickHouse at ${r.origin}: ${p.cause??p.message}`)}let c=await a.text();if(!a.ok)throw new l(`ClickHouse answered ${a.status}: ${c.trim().split(`
`)[0]}`);return c}}}function T(t){return`'${t.replace(/\\/g,"\\\\").replace(/'/g,"\\'")}'`}var f=`CREATE TABLE IF NOT EXISTS utility_steps (
  id String,
  time DateTime('UTC'),
  time_ms UInt64,
  developer String,
  project String,
  session_id String,
  prompt_key String,
  prompt_id String,
  scope String,
  agent_type String,
  task UInt32,
  step UInt32,
  event String,
  tool String,
  tool_use_id String,
  decision String,
  rule String,
  reason String,
  gated UInt8,
  action String,
  utility Nullable(Float64),
  model String,
  message_id String,
  input_tokens UInt64,
  output_tokens UInt64,
  cache_creation_tokens UInt64,
  cache_read_tokens UInt64,
  repeat UInt8,
  stuck UInt8,
  identical UInt8,
  outcome String,
  latency_ms Float64
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY (session_id, id)`,E=`CREATE TABLE IF NOT EXISTS utility_tasks (
  id String,
  version UInt64,
  started DateTime('UTC'),
  ended DateTime('UTC'),
  developer String,
  project String,
  session_id String,
  prompt_id String,
  scope String,
  task UInt32,
  steps UInt32,
  refusals UInt32,
  tokens UInt64,
  cost_usd Float64,
  models Array(String)
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(started)
ORDER BY (session_id, id)`,u={steps:"utility_steps",tasks:"utility_tasks"};async function w(t){await t.run(f),await t.run(E)}function S(t){return t.map(T).join(", ")}async function _(t,s,e){let r=e?` AND id IN (${S(e)})`:"",o=await t.run(`SELECT id FROM ${u.steps} WHERE session_id IN (${S(s)})${r} FORMAT TabSeparated`);return new Set(o.split(`
`).filter(i=>i!==""))}async function x(t,s){let e=await t.run(`SELECT id, max(version) FROM ${u.tasks} WHERE session_id IN (${S(s)}) GROUP BY id FORMAT TabSeparated`),r=new Map;for(let o of e.split(`
`)){let i=o.lastIndexOf("	");i>0&&r.set(o.slice(0,i).replace(/\\t/g,"	").replace(/\\\\/g,"\\"),Number(o.slice(i+1)))}return r}async function R(t,s,e){e.length!==0&&await t.run(`INSERT INTO ${s} FORMAT JSONEachRow`,`${e.map(r=>JSON.stringify(r)).join(`
`)}
`)}async function U(t,s,e,r=!1){let o=s.map(n=>n.session),i=r?s.flatMap(n=>n.steps.map(C=>C.id)):void 0,d=i?.length===0,a=r&&s.every(n=>n.tasks.length===0),[c,p]=await Promise.all([d?new Set:_(t,o,i),a?new Map:x(t,o)]),I=s.flatMap(n=>n.steps).filter(n=>!c.has(n.id)),m=[...new Map(I.map(n=>[n.id,n])).values()],k=s.flatMap(n=>n.tasks).filter(n=>n.version>(p.get(n.id)??0));await R(t,u.steps,m),await R(t,u.tasks,k),e.steps.sent+=m.length,e.steps.stored+=c.size,e.tasks.sent+=k.length,e.tasks.stored+=p.size}function H(t){return{sessions:t,steps:{sent:0,stored:0},tasks:{sent:0,stored:0}}}async function y(t,s){let e=H(1);return await U(t,[s],e,!0),e}var P=(t,s)=>{let e=g(new URL(t),s);return{ready:()=>w(e),async send(r){let o=await y(e,r);return{steps:o.steps.sent,tasks:o.tasks.sent}}}};export{P as startSender};
