import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);
import{d as o}from"./chunks/chunk-BQUI4BVF.js";import"./chunks/chunk-IB4VPGRC.js";import"./chunks/chunk-5VKTQEWW.js";import{u as r,z as e}from"./chunks/chunk-O4Z6FMDM.js";import"./chunks/chunk-L6EHX4HK.js";await e("PreToolUse",r,o);
