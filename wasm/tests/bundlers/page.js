// What the bundled page computes with the package (and the test computes with the Node
// entry, for comparison): hashes, a lock file formatted and refused, constraints, a version,
// and a planner's refusal, which loads the package's second module.
export async function compute(tf, zipBase64) {
  const zip = Uint8Array.from(atob(zipBase64), (c) => c.charCodeAt(0));
  const lock = `provider "registry.terraform.io/hashicorp/null" {
  version = "3.2.1"
  hashes = ["zh:${"b".repeat(64)}", "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="]
}
`;
  const duplicated = lock + lock;
  let refused = null;
  try {
    tf.formatLock(duplicated);
  } catch (e) {
    refused = e.summary;
  }
  let platform = null;
  try {
    await tf.Planner.create({ requirements: {}, platforms: ["nope"] });
  } catch (e) {
    platform = { summary: e.summary, detail: e.detail };
  }
  return {
    platform,
    zip: tf.hashZip(zip),
    files: tf.hashFiles([{ path: "terraform-provider-demo_v1.0.0", bytes: "#!/bin/sh\n" }]).h1,
    formatted: tf.formatLock(lock),
    duplicated: { lock: tf.parseLock(duplicated).lock, refused },
    constraints: tf.canonicalConstraints(">=1.0,<2.0"),
    selected: tf.selectVersion("~> 1.2.0", ["1.2.0", "1.2.7", "1.3.0"]).version,
    version: tf.version(),
  };
}
