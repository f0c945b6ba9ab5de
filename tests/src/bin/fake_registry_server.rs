//! A loopback provider registry for `cargo xtask real-world`'s `init` comparison: it serves
//! signed fake releases of the providers and versions named in a spec file, one HTTP server
//! per registry host, until its standard input closes.
//!
//! Spec lines: `<hostname>/<namespace>/<type> <version> <version> ...`. Packages are built for
//! this machine's platform only (that is all `init` installs). The output is one line per
//! host, `<hostname> <base URL>`, then `ready`.

use std::collections::BTreeMap;
use std::io::{Read, Write};

use tflock_core::addrs::{Platform, Provider};
use tflock_tests::fake_registry::FakeRegistry;
use tflock_tests::http_server::StaticServer;

fn main() {
    let Some(spec) = std::env::args().nth(1) else {
        eprintln!("usage: fake_registry_server SPEC");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&spec).expect("read the spec file");
    let here = Platform::current().to_string();
    let mut registries: BTreeMap<String, FakeRegistry> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        let address = words.next().expect("a provider address");
        let provider = Provider::parse(address, tflock_core::Flavor::Terraform)
            .unwrap_or_else(|e| panic!("spec line {line:?}: {e:?}"));
        let registry = registries.entry(provider.hostname.to_string()).or_default();
        for version in words {
            registry.publish(&provider, version, &[here.as_str()]);
        }
    }
    let mut servers = Vec::new();
    let mut out = std::io::stdout().lock();
    for (host, registry) in &registries {
        let files = registry
            .files_for_host(host)
            .into_iter()
            .map(|(path, body)| {
                let json = path.ends_with(".json")
                    || path.ends_with("/versions")
                    || path.contains("/download/");
                let ctype = if json {
                    "application/json"
                } else {
                    "application/octet-stream"
                };
                (path, (body, ctype.to_string()))
            })
            .collect();
        let server = StaticServer::start(files);
        writeln!(out, "{host} {}", server.base_url()).expect("stdout");
        servers.push(server);
    }
    writeln!(out, "ready").expect("stdout");
    out.flush().expect("stdout");
    drop(out);
    // Serve until the caller closes our standard input (or exits).
    let mut sink = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut sink);
    drop(servers);
}
