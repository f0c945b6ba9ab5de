// Runs the host-test cases with the package inside a host (a browser page, a Worker); the
// node side (hosts.mjs) compares the results with the native CLI and the go-versions oracle.
// Only web-platform APIs here: fetch/ReadableStream, Uint8Array, Error.
//
//   cases:  { zips: [{ name, url }], locks: [{ name, text }], constraints: [string], versions: [string] }
//   open(url) -> Promise<ReadableStream<Uint8Array>>   (a streamed fetch in the host)

async function collect(stream) {
  const chunks = [];
  let n = 0;
  for (const reader = stream.getReader(); ; ) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    n += value.length;
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

function thrown(e) {
  return { isError: e instanceof Error, summary: e?.summary ?? null, detail: e?.detail ?? String(e) };
}

export async function runCases(tf, cases, open) {
  const out = { zips: [], locks: [], selections: [], errors: {} };
  for (const { name, url } of cases.zips) {
    // ZipHasher over the stream as it arrives, chunk by chunk (bounded memory).
    const hasher = new tf.ZipHasher();
    const reader = (await open(url)).getReader();
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      hasher.update(value);
      chunks++;
    }
    const bytesSeen = hasher.bytesSeen;
    const streamed = hasher.finish();
    // hashZip on the whole archive, fetched again.
    const whole = tf.hashZip(await collect(await open(url)));
    out.zips.push({ name, streamed, whole, chunks, bytesSeen });
  }
  for (const { name, text } of cases.locks) {
    const { lock, diagnostics } = tf.parseLock(text, { filename: name });
    const errors = diagnostics.filter((d) => d.severity === "error").map((d) => d.summary);
    let formatted = null;
    if (errors.length === 0) formatted = tf.formatLock(lock);
    out.locks.push({
      name,
      errors,
      formatted,
      providers: (lock?.providers ?? []).map((p) => [p.provider, p.version]),
    });
  }
  for (const c of cases.constraints) {
    try {
      out.selections.push({ constraint: c, version: tf.selectVersion(c, cases.versions).version });
    } catch (e) {
      out.selections.push({ constraint: c, error: thrown(e) });
    }
  }
  // Failures are thrown as Errors with the diagnostic fields, never a trap.
  try {
    tf.hashZip(new Uint8Array([1, 2, 3, 4]));
    out.errors.hashZip = "did not throw";
  } catch (e) {
    out.errors.hashZip = thrown(e);
  }
  try {
    new tf.ZipHasher().update(new Uint8Array(64).fill(7));
    out.errors.zipHasher = "did not throw";
  } catch (e) {
    out.errors.zipHasher = thrown(e);
  }
  // The second module (lock(), Planner, verifySha256Sums), loaded in the host on this first
  // call that needs it.
  try {
    await tf.Planner.create({ requirements: {}, platforms: ["nope"] });
    out.planner = "did not throw";
  } catch (e) {
    out.planner = thrown(e);
  }
  return out;
}
