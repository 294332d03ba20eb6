import{serve as r}from"./hooks/runtime.js";r();
