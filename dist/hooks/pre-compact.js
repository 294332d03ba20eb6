import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);
import{i as e,s as r,t as s,y as p,z as m}from"./chunks/chunk-O4Z6FMDM.js";import"./chunks/chunk-L6EHX4HK.js";async function n(o,i){let c=r(o);return await i.store.transact(o.session_id,a=>{let t=a??e(o.session_id),f=s(t,c);return f.history=[],{state:t,result:void 0}}),{}}await m("PreCompact",p,n);
