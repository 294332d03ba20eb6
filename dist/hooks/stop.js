import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);
import{a as p}from"./chunks/chunk-75IY2EPR.js";import"./chunks/chunk-IB4VPGRC.js";import"./chunks/chunk-5VKTQEWW.js";import{x as o,z as t}from"./chunks/chunk-O4Z6FMDM.js";import"./chunks/chunk-L6EHX4HK.js";await t("Stop",o,(m,r)=>p(m,r,"Stop"));
