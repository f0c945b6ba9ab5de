// Texts the package's scripts print: `npx tflock lockfile diff`'s summary (cli.js) and the
// Markdown the GitHub Action writes for a pull request (action.js).

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const quotedOrNone = (s) => (s === "" ? "(none)" : `"${s}"`);

/**
 * `tflock lockfile diff`'s text for a `diffLock` result. A copy of the core's
 * `lockfile::render_diff` (the differential test holds the two together): the core's
 * renderer in the module costs 1.3 KB gzipped, over the package's size ceiling until
 * issue 32 item 1 shrinks the module.
 */
export function renderDiff(diff) {
  if (diff.providers.length === 0) return "No changes.\n";
  return diff.providers.map((p) => `${p.provider}: ${p.changes.map(describeChange).join("; ")}\n`).join("");
}

/** One change of a `diffLock` provider, in `tflock lockfile diff`'s words. */
export function describeChange(c) {
  switch (c.kind) {
    case "new_provider": {
      let s = `new provider, version ${c.version}`;
      if (c.constraints !== "") s += ` (constraints "${c.constraints}")`;
      const total = c.checksums.reduce((n, x) => n + x.count, 0);
      if (total > 0) s += `, ${plural(total, "checksum")} (${c.checksums.map((x) => `${x.count} ${x.scheme}`).join(", ")})`;
      return s;
    }
    case "removed_provider":
      return `removed, no longer required (was version ${c.version})`;
    case "new_version":
      return `${{ upgrade: "upgraded", downgrade: "downgraded" }[c.direction] ?? "changed version"} ${c.from} -> ${c.to}`;
    case "constraints_changed":
      return `constraints ${quotedOrNone(c.from)} -> ${quotedOrNone(c.to)}`;
    case "new_checksums":
      return `${plural(c.added.length, "new checksum")} (${c.schemes.join(", ")}) for the same version`;
    case "removed_checksums":
      return `${plural(c.removed.length, "checksum")} removed`;
    case "checksums_replaced":
      return `checksums replaced (${c.removed} removed, ${c.added} added)`;
    default:
      throw new Error(`unknown change ${JSON.stringify(c)}`);
  }
}

/**
 * A `diffLock` result as Markdown for a pull request: one table row per provider, the
 * changes in `tflock lockfile diff`'s words.
 */
export function renderDiffMarkdown(diff, title = "Provider lock changes") {
  if (diff.providers.length === 0) return `### ${title}\n\nNo changes.\n`;
  const cell = (s) => s.replaceAll("|", "\\|");
  const rows = diff.providers.map((p) => `| \`${p.provider}\` | ${cell(p.changes.map(describeChange).join("; "))} |`);
  return `### ${title}\n\n| Provider | Change |\n|---|---|\n${rows.join("\n")}\n`;
}

