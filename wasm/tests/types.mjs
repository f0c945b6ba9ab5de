// Holds the hand-written `types.d.ts` to what the bindings really return: `assertType(value,
// "PlanOutcome")` parses the declaration and checks the value against it, field by field and
// recursively: every required field present, no field the declaration does not name, arrays,
// `| null`, intersections and inline object types followed; primitives checked by `typeof`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { root } from "./helpers.mjs";

const source = readFileSync(root + "wasm/src/types.d.ts", "utf8")
  .replace(/\/\*[\s\S]*?\*\//g, "")
  .replace(/\/\/[^\n]*/g, "");

/** Splits `text` on `sep` where no bracket is open. */
function splitTop(text, sep) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ("{([".includes(c)) depth++;
    else if ("})]".includes(c)) depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** `{ a: T; b?: U }` body text → [{ name, optional, type }]. */
function fields(body) {
  return splitTop(body, ";").flatMap((member) => {
    const m = /^(\w+)(\?)?\s*:\s*([\s\S]+)$/.exec(member);
    return m ? [{ name: m[1], optional: m[2] === "?", type: m[3].trim() }] : [];
  });
}

/** Every `export interface`, with the fields of the interfaces it extends. */
const interfaces = new Map();
const extendsOf = new Map();
for (const m of source.matchAll(/export interface (\w+)(?:\s+extends\s+([\w\s,]+))?\s*\{/g)) {
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  for (; depth > 0; i++) depth += source[i] === "{" ? 1 : source[i] === "}" ? -1 : 0;
  interfaces.set(m[1], fields(source.slice(start, i - 1)));
  extendsOf.set(m[1], (m[2] ?? "").split(",").map((s) => s.trim()).filter(Boolean));
}

/** Every `export type Name = ...;` (unions of object types, literal unions), by name. */
const aliases = new Map();
for (const m of source.matchAll(/export type (\w+)\s*=/g)) {
  let depth = 0;
  let i = m.index + m[0].length;
  const start = i;
  for (; i < source.length && !(depth === 0 && source[i] === ";"); i++) {
    if ("{([".includes(source[i])) depth++;
    else if ("})]".includes(source[i])) depth--;
  }
  aliases.set(m[1], source.slice(start, i).trim());
}

function declared(name) {
  const own = interfaces.get(name) ?? [];
  return [...own, ...(extendsOf.get(name) ?? []).flatMap(declared)];
}

/** The fields an object type text declares, or null when it is not an object type we know. */
function objectFields(type) {
  const parts = splitTop(type, "&");
  const all = [];
  for (const part of parts) {
    if (part.startsWith("{") && part.endsWith("}")) all.push(...fields(part.slice(1, -1)));
    else if (interfaces.has(part)) all.push(...declared(part));
    else return null;
  }
  return all;
}

function check(value, type, path) {
  if (aliases.has(type)) return check(value, aliases.get(type), path);
  const alternatives = splitTop(type, "|");
  if (alternatives.length > 1) {
    if (value === null && alternatives.includes("null")) return;
    if (value === undefined && alternatives.includes("undefined")) return;
    const errors = [];
    for (const alt of alternatives) {
      try {
        return check(value, alt, path);
      } catch (e) {
        errors.push(e.message);
      }
    }
    assert.fail(`${path}: matches none of ${type}:\n  ${errors.join("\n  ")}`);
  }
  if (type.startsWith("(") && type.endsWith(")")) return check(value, type.slice(1, -1), path);
  if (type.endsWith("[]")) {
    assert.ok(Array.isArray(value), `${path}: expected an array (${type}), got ${JSON.stringify(value)}`);
    value.forEach((v, i) => check(v, type.slice(0, -2), `${path}[${i}]`));
    return;
  }
  if (["string", "number", "boolean"].includes(type)) {
    assert.equal(typeof value, type, `${path}: expected ${type}, got ${JSON.stringify(value)}`);
    return;
  }
  if (type === "null") return assert.equal(value, null, `${path}: expected null`);
  if (/^"[^"]*"$/.test(type)) return assert.equal(value, JSON.parse(type), `${path}`);
  const declaredFields = objectFields(type);
  if (declaredFields === null) return; // Record<…>, functions, aliases: not followed
  assert.ok(value !== null && typeof value === "object", `${path}: expected an object (${type})`);
  const names = new Set(declaredFields.map((f) => f.name));
  for (const key of Object.keys(value)) {
    assert.ok(names.has(key), `${path}.${key}: returned, but ${type} in types.d.ts does not declare it`);
  }
  for (const f of declaredFields) {
    if (!(f.name in value)) {
      assert.ok(f.optional, `${path}.${f.name}: declared by ${type} in types.d.ts, but not returned`);
      continue;
    }
    check(value[f.name], f.type, `${path}.${f.name}`);
  }
}

/** Fails unless `value` has the shape `types.d.ts` declares for `type`. */
export function assertType(value, type) {
  assert.ok(objectFields(type) !== null || aliases.has(type), `types.d.ts declares no interface or type ${type}`);
  check(value, type, type);
}
