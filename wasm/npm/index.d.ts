export * from "./tflock.js";
